// Why: compare-and-swap must hold between processes for documents and for state values alike.
// Core's shared check starts node processes that open this store from a `dir:` spec through the
// registry (so it also proves the package loads by name) and append numbered lines with a retry
// loop; nothing may be lost, duplicated or reordered.
import { runCrossProcessCompareAndSwap } from '@repomem/core/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDirectoryStore } from '../src/index.js';
import { builtPackageUrl, freshDirectory, listRaw, removeDirectory } from './support.js';

let dir: string;

beforeAll(() => {
  builtPackageUrl(); // the workers load the built package through core's registry
}, 120_000);
beforeEach(async () => {
  dir = await freshDirectory('repomem-cross-process-');
});
afterEach(async () => {
  await removeDirectory(dir);
});

describe('compare-and-swap across processes, opened by spec (dir:)', () => {
  for (const target of ['document', 'state'] as const) {
    it(`3 processes appending to one ${target} lose, duplicate and reorder nothing`, async () => {
      const root = `${dir}/memory`;
      await openDirectoryStore({ root, create: true }).then((store) => store.close());
      const report = await runCrossProcessCompareAndSwap({ spec: `dir:${root}`, workers: 3, operations: 20, target });
      expect(report.failedWorkers.map((worker) => worker.stderr)).toEqual([]);
      expect(report.missing).toEqual([]);
      expect(report.duplicated).toEqual([]);
      expect(report.reordered).toEqual([]);
      expect(report.found).toHaveLength(60);
      // Nothing but the one document (or the one state file) is left: no lock or temp file.
      expect(await listRaw(dir)).toEqual(
        target === 'document' ? ['memory/MEMORY.md'] : ['.repomem-state/memory/cross-process/lines.json'],
      );
    }, 120_000);
  }
});
