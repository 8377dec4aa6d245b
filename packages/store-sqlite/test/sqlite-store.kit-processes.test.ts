// Why: the store runs on core's kit since the port: the kit reads versions and checks path twins
// before the driver's `BEGIN IMMEDIATE` transaction re-checks them, so writers of several
// processes waiting on the busy timeout must still lose nothing. 4 processes x 25
// compare-and-swap appends to one document (what concurrent `update add` runs do), opened
// through the sqlite: scheme.
import { join } from 'node:path';
import { runCrossProcessCompareAndSwap } from '@repomem/core/testing';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { openSqliteStore } from '../src/index.js';
import { builtPackageUrl, freshDirectory, removeDirectory } from './support.js';

let dir: string;
beforeAll(() => {
  builtPackageUrl();
}, 120_000);
beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-kit-processes-');
});
afterEach(async () => {
  await removeDirectory(dir);
});

it('4 processes x 25 compare-and-swap appends to one document of a new file: none lost', async () => {
  const report = await runCrossProcessCompareAndSwap({
    spec: 'sqlite:shared/memory.db',
    cwd: dir,
    repo: 'acme/rocket',
    workers: 4,
    operations: 25,
  });
  for (const worker of report.failedWorkers) expect(worker, worker.output).toMatchObject({ code: 0 });
  expect(report.missing).toEqual([]);
  expect(report.duplicated).toEqual([]);
  expect(report.reordered).toEqual([]);
  expect(report.found).toHaveLength(100);
  const store = await openSqliteStore({ path: join(dir, 'shared', 'memory.db'), repo: 'acme/rocket' });
  expect((await store.list()).map((entry) => entry.path)).toEqual(['MEMORY.md']);
  expect(await store.revision()).toMatch(/\.\d+$/);
  await store.close();
}, 120_000);
