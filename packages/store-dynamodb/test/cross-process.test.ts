// Why: compare-and-swap must hold between processes: 4 node processes open the store from a
// `dynamodb:` spec through core's registry (so the package also loads by name) and append 25
// numbered lines each to one document, and then to one state value; nothing may be lost,
// duplicated or reordered.
import { runCrossProcessCompareAndSwap } from '@repomem/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dynalite, freshRepo, startDynalite } from './support.js';

let dynamo: Dynalite;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo.stop();
});

describe('compare-and-swap across processes, opened by spec (dynamodb:)', () => {
  for (const target of ['document', 'state'] as const) {
    it(`4 processes x 25 appends to one ${target} lose, duplicate and reorder nothing`, async () => {
      const report = await runCrossProcessCompareAndSwap({
        spec: 'dynamodb:cross-process',
        repo: freshRepo(),
        workers: 4,
        operations: 25,
        target,
      });
      expect(report.failedWorkers.map((worker) => worker.stderr)).toEqual([]);
      expect(report.missing).toEqual([]);
      expect(report.duplicated).toEqual([]);
      expect(report.reordered).toEqual([]);
      expect(report.found).toHaveLength(100);
    }, 120_000);
  }
});
