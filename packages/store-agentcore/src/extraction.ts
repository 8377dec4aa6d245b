// Why: long-term extraction from events is asynchronous and can fail; AgentCore keeps failed jobs
// and lets them be re-run. These two calls expose that for re-processing. Nothing in repomem's
// own reads depends on extraction: documents, state and verified memories are written as
// records directly (readable at once), and their events are blobs, which are never extracted.
import { ListMemoryExtractionJobsCommand, StartMemoryExtractionJobCommand } from '@aws-sdk/client-bedrock-agentcore';
import type { AgentCoreConnection } from './connection.js';

/** An extraction job as the service reports it. */
export interface ExtractionJobSummary {
  /** Job id (pass it to {@link startExtractionJob} to re-run it). */
  readonly jobId: string;
  /** Status (`FAILED` is the only one the service lists today). */
  readonly status?: string;
  /** Why it failed. */
  readonly failureReason?: string;
  /** Actor and session of the events it covered. */
  readonly actorId?: string;
  readonly sessionId?: string;
  /** Strategy that ran. */
  readonly strategyId?: string;
}

/** Filters of {@link listExtractionJobs}. */
export interface ExtractionJobFilter {
  readonly actorId?: string;
  readonly sessionId?: string;
  readonly strategyId?: string;
  readonly status?: 'FAILED';
}

/** Every extraction job of the memory matching `filter` (all pages of at most 50, the model's limit). */
export async function listExtractionJobs(
  connection: AgentCoreConnection,
  filter: ExtractionJobFilter = {},
): Promise<ExtractionJobSummary[]> {
  const jobs: ExtractionJobSummary[] = [];
  let nextToken: string | undefined;
  do {
    const page = await connection.send('ListMemoryExtractionJobs', (client, options) =>
      client.send(
        new ListMemoryExtractionJobsCommand({
          memoryId: connection.memoryId,
          maxResults: 50,
          ...(Object.keys(filter).length === 0 ? {} : { filter }),
          ...(nextToken === undefined ? {} : { nextToken }),
        }),
        options,
      ),
    );
    for (const job of page.jobs ?? []) {
      if (job.jobID === undefined) continue;
      jobs.push({
        jobId: job.jobID,
        ...(job.status === undefined ? {} : { status: job.status }),
        ...(job.failureReason === undefined ? {} : { failureReason: job.failureReason }),
        ...(job.actorId === undefined ? {} : { actorId: job.actorId }),
        ...(job.sessionId === undefined ? {} : { sessionId: job.sessionId }),
        ...(job.strategyId === undefined ? {} : { strategyId: job.strategyId }),
      });
    }
    nextToken = page.nextToken;
  } while (nextToken !== undefined && nextToken !== '');
  return jobs;
}

/** Re-run an extraction job; returns the id the service gives the new run. */
export async function startExtractionJob(connection: AgentCoreConnection, jobId: string): Promise<string> {
  const output = await connection.send('StartMemoryExtractionJob', (client, options) =>
    client.send(
      new StartMemoryExtractionJobCommand({ memoryId: connection.memoryId, extractionJob: { jobId } }),
      options,
    ),
  );
  return output.jobId ?? jobId;
}
