import { join } from 'node:path';
import { searchStore } from '@repomem/core';
import { runCrossProcessCompareAndSwap, runNodeWorkers } from '@repomem/core/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/index.js';
import { builtPackageUrl, freshDirectory, removeDirectory } from './support.js';

const fixtures = join(import.meta.dirname, 'fixtures');
let packageUrl: string;
let dir: string;

beforeAll(() => {
  packageUrl = builtPackageUrl();
}, 120_000);
beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-processes-');
});
afterEach(async () => {
  await removeDirectory(dir);
});

describe('sqlite store across processes', () => {
  it('2 processes x 50 compare-and-swap appends to one document of a new file: all 100 lines land, once each', async () => {
    const workers = 2;
    const appends = 50;
    // The file does not exist yet: both processes race to create and migrate it too.
    const file = join(dir, 'shared', 'memory.db');
    const results = await runNodeWorkers(
      join(fixtures, 'cas-appender.mjs'),
      (worker) => [packageUrl, file, String(worker), String(appends)],
      { count: workers, nodeArgs: ['--no-warnings'] },
    );
    for (const result of results) expect(result, result.output).toMatchObject({ code: 0 });

    const store = await openSqliteStore({ path: file, repo: 'acme/rocket' });
    const text = new TextDecoder().decode((await store.get('MEMORY.md'))?.content);
    const lines = text.split('\n').filter((line) => line.startsWith('- '));
    const expected = Array.from({ length: workers }, (_, worker) =>
      Array.from({ length: appends }, (_, index) => `- worker ${worker} line ${index}`),
    ).flat();
    expect(lines.length).toBe(workers * appends);
    expect([...lines].sort()).toEqual([...expected].sort());
    for (let worker = 0; worker < workers; worker += 1) {
      const own = lines.filter((line) => line.startsWith(`- worker ${worker} `));
      expect(own, 'each worker appends in its own order').toEqual(
        expected.filter((line) => line.startsWith(`- worker ${worker} `)),
      );
    }
    // The index followed every committed write: the last line of each worker is searchable.
    const hits = await searchStore(store, 'worker line', { limit: 1 });
    expect(hits.results.map((hit) => hit.path)).toEqual(['MEMORY.md']);
    expect(await store.list()).toHaveLength(1);
    await store.close();
  }, 60_000);

  it('3 processes x 20 compare-and-swap appends to one state value, opened through the sqlite: scheme: none lost', async () => {
    // Workers open `sqlite:<relative path>` through core's registry, so this also checks storeScheme.
    const report = await runCrossProcessCompareAndSwap({
      spec: 'sqlite:state/memory.db',
      cwd: dir,
      repo: 'acme/rocket',
      workers: 3,
      operations: 20,
      target: 'state',
    });
    for (const worker of report.failedWorkers) expect(worker, worker.output).toMatchObject({ code: 0 });
    expect(report.missing).toEqual([]);
    expect(report.duplicated).toEqual([]);
    expect(report.reordered).toEqual([]);
    expect(report.found).toHaveLength(60);
    const store = await openSqliteStore({ path: join(dir, 'state', 'memory.db'), repo: 'acme/rocket' });
    expect(await store.list()).toEqual([]);
    expect((await store.state.list()).map((entry) => entry.key)).toEqual(['cross-process/lines']);
    await store.close();
  }, 60_000);
});
