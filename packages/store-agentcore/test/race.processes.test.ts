// Why: no lost edit across processes without a conditional write in the service: two Node
// processes open the store by its spec (through core's registry) and each add 25 bullets to the
// same file through the emulator with 20 ms latency per request; all 50 must be there, once each.
import { runCrossProcessCompareAndSwap } from '@repomem/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentCoreEmulator, EMULATOR_CREDENTIALS } from '../src/testing/index.js';
import { freshRepo, startEmulator } from './support.js';

let emulator: AgentCoreEmulator;
const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
beforeAll(async () => {
  emulator = await startEmulator({ latencyMs: 20 });
  // The worker processes inherit the environment: the SDK's credential chain reads these.
  process.env.AWS_ACCESS_KEY_ID = EMULATOR_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = EMULATOR_CREDENTIALS.secretAccessKey;
});
afterAll(async () => {
  await emulator.close();
  if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
  else process.env.AWS_ACCESS_KEY_ID = saved.id;
  if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
});

describe('two processes racing on one document', () => {
  it('2 processes x 25 bullet adds to MEMORY.md: all 50 land, none twice, each in order', async () => {
    const spec = `agentcore:${emulator.memoryId}?region=${emulator.region}&endpoint=${encodeURIComponent(emulator.endpoint)}`;
    const report = await runCrossProcessCompareAndSwap({ spec, repo: freshRepo(), workers: 2, operations: 25 });
    expect(report.failedWorkers.map((worker) => worker.stderr)).toEqual([]);
    expect(report.missing).toEqual([]);
    expect(report.duplicated).toEqual([]);
    expect(report.reordered).toEqual([]);
    expect(report.found).toHaveLength(50);
  }, 120_000);

  it('2 processes x 10 appends to one state value: all 20 land', async () => {
    const spec = `agentcore:${emulator.memoryId}?region=${emulator.region}&endpoint=${encodeURIComponent(emulator.endpoint)}`;
    const report = await runCrossProcessCompareAndSwap({
      spec,
      repo: freshRepo(),
      workers: 2,
      operations: 10,
      target: 'state',
    });
    expect(report.failedWorkers.map((worker) => worker.stderr)).toEqual([]);
    expect(report.missing).toEqual([]);
    expect(report.found).toHaveLength(20);
  }, 120_000);
});
