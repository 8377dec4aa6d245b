// Why: one of two processes racing to push memory edits to the same remote branch: it adds
// distinct bullets to MEMORY.md through the memory facade in its own clone and syncs after each
// commit; the parent test checks the remote ends up with every bullet of both processes.
// Usage: node race-writer.mjs <store-git dist url> <clone dir> <worker id> <count>
import { openMemory } from '@repomem/core';

const [storeUrl, dir, worker, count] = process.argv.slice(2);
const { openGitStore, syncMemoryBranch } = await import(storeUrl);
const store = await openGitStore({ dir, agentId: `worker-${worker}` });
const memory = openMemory({ store, writeMetadata: { trailers: { 'Task-Id': `worker-${worker}` } } });
const syncOptions = { dir, retries: 30, minRetryDelayMs: 5, maxRetryDelayMs: 250 };
// Start together: report ready, then wait for the parent's "go" on stdin.
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.pause();
const statuses = {};
let attempts = 0;
let reapplied = 0;
let conflicts = 0;
let failures = 0;
const record = (outcome) => {
  statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
  if (outcome.status === 'pushed') {
    attempts += outcome.attempts;
    reapplied += outcome.reapplied;
    conflicts += outcome.conflicts.length;
  }
};
const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
for (let index = 0; index < Number(count); index += 1) {
  // A little think time between edits, so neither writer can monopolise the branch.
  await pause();
  const added = await memory.add({ file: 'MEMORY.md', section: 'Notes', text: `worker ${worker} item ${index}` });
  if (added.kind !== 'added') throw new Error(`unexpected outcome ${added.kind}`);
  try {
    record(await syncMemoryBranch(syncOptions));
  } catch (error) {
    // Lost every race this time: the commit stays local and goes out with the next sync.
    if (error?.code !== 'CONFLICT') throw error;
    failures += 1;
  }
}
// Flush anything a lost race left behind.
for (let round = 0; round < 20; round += 1) {
  try {
    const outcome = await syncMemoryBranch(syncOptions);
    record(outcome);
    if (outcome.status === 'up_to_date' || outcome.status === 'pushed') break;
  } catch (error) {
    if (error?.code !== 'CONFLICT') throw error;
    failures += 1;
  }
}
await store.close();
process.stdout.write(JSON.stringify({ worker, statuses, attempts, reapplied, conflicts, failures }));
