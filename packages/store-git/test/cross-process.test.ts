import { runCrossProcessCompareAndSwap } from '@repomem/core/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { builtStoreGitUrl, freshRepository, fsckStrict, removeDirectory } from './support.js';

let dir: string;

beforeAll(() => {
  builtStoreGitUrl(); // the workers load the built package through core's registry
}, 120_000);
beforeEach(async () => {
  dir = await freshRepository();
});
afterEach(async () => {
  await removeDirectory(dir);
});

describe('compare-and-swap across processes, opened by spec (git:)', () => {
  for (const target of ['document', 'state'] as const) {
    it(`3 processes appending to one ${target} lose, duplicate and reorder nothing; fsck is clean`, async () => {
      const report = await runCrossProcessCompareAndSwap({ spec: `git:${dir}`, workers: 3, operations: 10, target });
      expect(report.failedWorkers.map((worker) => worker.stderr)).toEqual([]);
      expect(report.missing).toEqual([]);
      expect(report.duplicated).toEqual([]);
      expect(report.reordered).toEqual([]);
      expect(report.found).toHaveLength(30);
      fsckStrict(dir);
    }, 120_000);
  }
});
