// Why: failed long-term extraction jobs can be listed and re-run through the adapter (the
// re-processing path of asynchronous extraction), through the real client against the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listExtractionJobs, startExtractionJob } from '../src/index.js';
import type { AgentCoreEmulator } from '../src/testing/index.js';
import { emulatorConnection, startEmulator } from './support.js';

let emulator: AgentCoreEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator.close();
});

describe('extraction jobs', () => {
  it('lists failed jobs (filtered) and starts a re-run', async () => {
    const jobId = emulator.addFailedExtractionJob({
      actorId: 'acme/app',
      sessionId: 'task-1',
      failureReason: 'model timeout',
    });
    emulator.addFailedExtractionJob({ actorId: 'acme/other', sessionId: 'task-2' });
    const connection = emulatorConnection(emulator);
    const all = await listExtractionJobs(connection);
    expect(all.map((job) => job.jobId)).toContain(jobId);
    const mine = await listExtractionJobs(connection, { actorId: 'acme/app' });
    expect(mine).toEqual([expect.objectContaining({ jobId, failureReason: 'model timeout', sessionId: 'task-1' })]);
    expect(typeof (await startExtractionJob(connection, jobId))).toBe('string');
    connection.close();
  });
});
