// Why: long-term extraction is asynchronous in the service and a no-op here (records appear only
// through direct batch writes), but its job operations must still answer validly: failed jobs
// seeded by a test are listed, and starting one re-processes it (it leaves the failed list).
import { randomUUID } from 'node:crypto';
import { notFound } from '../errors.js';
import { paginate, queryFingerprint } from '../pagination.js';
import type { MemoryState, StoredExtractionJob } from '../state.js';
import type { ListExtractionJobsWire } from '../wire-types.js';
import { idempotent, type OperationHandler } from './context.js';

/** A failed extraction job a test seeds with `AgentCoreEmulator.addFailedExtractionJob`. */
export interface FailedExtractionJobSeed {
  /** Job id (generated when omitted). */
  readonly jobId?: string;
  readonly actorId?: string;
  readonly sessionId?: string;
  readonly strategyId?: string;
  readonly failureReason?: string;
  /** Events whose messages the job failed to extract. */
  readonly messages?: readonly { readonly eventId: string; readonly messageIndex: number }[];
}

/** Records a failed job in `memory` and returns its id. */
export function seedFailedJob(memory: MemoryState, seed: FailedExtractionJobSeed): string {
  const jobID = seed.jobId ?? randomUUID();
  memory.failedJobs.set(jobID, {
    jobID,
    messages: seed.messages ?? [],
    seq: memory.nextSeq(),
    ...(seed.actorId === undefined ? {} : { actorId: seed.actorId }),
    ...(seed.sessionId === undefined ? {} : { sessionId: seed.sessionId }),
    ...(seed.strategyId === undefined ? {} : { strategyId: seed.strategyId }),
    ...(seed.failureReason === undefined ? {} : { failureReason: seed.failureReason }),
  });
  return jobID;
}

const startJob: OperationHandler = (context) =>
  idempotent(context, () => {
    const jobId = (context.input.extractionJob as { jobId: string }).jobId;
    if (!context.memory.failedJobs.delete(jobId)) throw notFound(`Extraction job ${jobId} not found.`);
    return { jobId };
  });

function jobWire(job: StoredExtractionJob): Record<string, unknown> {
  const { seq: _seq, messages, ...rest } = job;
  return { ...rest, status: 'FAILED', messages: { messagesList: messages.map((message) => ({ ...message })) } };
}

const listJobs: OperationHandler = (context) => {
  const input = context.input as unknown as ListExtractionJobsWire;
  const filter = input.filter ?? {};
  const jobs = [...context.memory.failedJobs.values()].filter(
    (job) =>
      (filter.actorId === undefined || job.actorId === filter.actorId) &&
      (filter.sessionId === undefined || job.sessionId === filter.sessionId) &&
      (filter.strategyId === undefined || job.strategyId === filter.strategyId) &&
      (filter.status === undefined || filter.status === 'FAILED'),
  );
  const { page, nextToken } = paginate(jobs, (job) => [job.seq], input, queryFingerprint(context.operation, filter));
  return { jobs: page.map(jobWire), ...(nextToken ? { nextToken } : {}) };
};

/** Handlers of the extraction-job operations, by operation name. */
export const extractionHandlers: Readonly<Record<string, OperationHandler>> = {
  StartMemoryExtractionJob: startJob,
  ListMemoryExtractionJobs: listJobs,
};
