import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGitStore, syncMemoryBranch } from '../src/index.js';
import { type RemoteFixture, startRemoteFixture } from './support/git-http-server.js';
import { builtStoreGitUrl, fsckStrict, gitEnv, utf8 } from './support.js';

const BRANCH = 'agent/memory';
const WORKERS = 2;
const EDITS = 25;
let storeUrl: string;
let remote: RemoteFixture;

beforeAll(async () => {
  storeUrl = builtStoreGitUrl();
  remote = await startRemoteFixture();
}, 120_000);
afterAll(async () => {
  await remote?.dispose();
});

interface WorkerReport {
  worker: string;
  statuses: Record<string, number>;
  attempts: number;
  reapplied: number;
  conflicts: number;
  failures: number;
}

/** Start a worker; `ready` resolves once it has loaded and waits for {@link WorkerHandle.go}. */
interface WorkerHandle {
  readonly ready: Promise<void>;
  go(): void;
  readonly done: Promise<WorkerReport>;
}

function startWorker(dir: string, worker: number): WorkerHandle {
  const child = spawn(
    process.execPath,
    [join(import.meta.dirname, 'support', 'race-writer.mjs'), storeUrl, dir, String(worker), String(EDITS)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let signalReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    signalReady = resolve;
  });
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    if (stdout.startsWith('ready\n')) signalReady();
  });
  const done = new Promise<WorkerReport>((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => {
      signalReady();
      if (code !== 0) reject(new Error(`worker ${worker} exited with ${code}: ${stderr}${stdout}`));
      else resolve(JSON.parse(stdout.slice('ready\n'.length)) as WorkerReport);
    });
  });
  return { ready, done, go: () => child.stdin.end('go\n') };
}

function bareGit(args: string[]): string {
  return execFileSync('git', ['--git-dir', remote.bare, ...args], { env: gitEnv })
    .toString('utf8')
    .trim();
}

describe('two processes pushing to one remote branch at the same time', () => {
  it(`each commits ${EDITS} bullets and syncs after every commit: the remote holds all ${WORKERS * EDITS}, fsck is clean`, async () => {
    // Seed the remote (the bootstrap a real installation starts from).
    const seeder = await remote.clone();
    const seed = await openGitStore({ dir: seeder, agentId: 'bootstrap' });
    await seed.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('# Memory\n\n## Notes\n') }]);
    await seed.close();
    expect((await syncMemoryBranch({ dir: seeder })).status).toBe('pushed');
    const clones = await Promise.all(Array.from({ length: WORKERS }, () => remote.clone()));
    for (const clone of clones) expect((await syncMemoryBranch({ dir: clone })).status).toBe('fetched_only');

    const workers = clones.map((clone, worker) => startWorker(clone, worker));
    await Promise.all(workers.map((worker) => worker.ready));
    const started = performance.now();
    for (const worker of workers) worker.go();
    const reports = await Promise.all(workers.map((worker) => worker.done));
    const elapsed = performance.now() - started;
    console.log(`race: ${WORKERS} x ${EDITS} edits in ${Math.round(elapsed)} ms`, JSON.stringify(reports));

    const memory = bareGit(['show', `${BRANCH}:MEMORY.md`]);
    const bullets = memory.split('\n').filter((line) => line.startsWith('- '));
    const expected = Array.from({ length: WORKERS }, (_, worker) =>
      Array.from({ length: EDITS }, (_, index) => `- worker ${worker} item ${index}`),
    ).flat();
    expect([...bullets].sort()).toEqual([...expected].sort());
    expect(memory.startsWith('# Memory\n\n## Notes\n')).toBe(true);
    // Every edit is its own commit on the remote, still attributed to its worker.
    expect(bareGit(['rev-list', '--count', BRANCH])).toBe(String(WORKERS * EDITS + 1));
    const authors = bareGit(['log', '--format=%an', BRANCH]).split('\n');
    for (let worker = 0; worker < WORKERS; worker += 1) {
      expect(authors.filter((author) => author === `worker-${worker}`)).toHaveLength(EDITS);
    }
    for (const report of reports) expect(report.conflicts).toBe(0);
    fsckStrict(remote.bare);
    for (const clone of clones) fsckStrict(clone);
  }, 120_000);
});
