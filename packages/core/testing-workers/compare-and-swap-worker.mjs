// Why: the worker process of `runCrossProcessCompareAndSwap` (@repomem/core/testing). It opens a
// store through core's registry from a spec, so one worker serves every store package, and
// appends its own numbered lines to one document (or increments one state key) with a
// compare-and-swap retry loop. It prints one JSON line: its conflicts and what it committed.
// Usage: node compare-and-swap-worker.mjs <json options>
import { openStore } from '@repomem/core';

const options = JSON.parse(process.argv[2] ?? '{}');
const store = await openStore(options.spec, { repo: options.repo, cwd: options.cwd });
const encoder = new TextEncoder();
const decoder = new TextDecoder();
let conflicts = 0;
try {
  for (let index = 0; index < options.operations; index += 1) {
    const line = `- worker ${options.worker} line ${index}`;
    for (;;) {
      if (options.target === 'state') {
        const current = await store.state.get(options.key);
        const lines = Array.isArray(current?.value) ? current.value : [];
        const result = await store.state.put(options.key, [...lines, line], current?.version ?? null);
        if (result.status === 'committed') break;
      } else {
        const current = await store.get(options.path);
        const text = current === undefined ? '# Memory\n' : decoder.decode(current.content);
        const result = await store.write(
          [
            {
              kind: 'put',
              path: options.path,
              content: encoder.encode(`${text}${line}\n`),
              expectedVersion: current?.version ?? null,
            },
          ],
          { message: `worker ${options.worker} line ${index}` },
        );
        if (result.status === 'committed') break;
      }
      conflicts += 1;
    }
  }
} finally {
  await store.close();
}
process.stdout.write(`${JSON.stringify({ worker: options.worker, conflicts })}\n`);
