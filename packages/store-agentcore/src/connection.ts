// Why: one place owns the AWS client and the retry policy. The SDK's own retries are switched
// off (maxAttempts 1) for clients this package builds, so a throttled call is retried by exactly
// one layer (p-retry, exponential backoff with full jitter, bounded attempts) instead of the SDK's
// three attempts inside each of ours; every final failure is mapped to a RepomemError.
import { BedrockAgentCoreClient, type BedrockAgentCoreClientConfig } from '@aws-sdk/client-bedrock-agentcore';
import { RepomemError } from '@repomem/core';
import pRetry from 'p-retry';
import { isRetryableAgentCoreError, mapAgentCoreError } from './errors.js';
import { MEMORY_ID_PATTERN } from './model-patterns.js';

/** Static AWS credentials or a provider of them (what the SDK accepts). */
export type AgentCoreCredentials = NonNullable<BedrockAgentCoreClientConfig['credentials']>;

/** How to reach one AgentCore memory. */
export interface AgentCoreConnectionOptions {
  /** The memory id (`name-XXXXXXXXXX`) or its ARN. */
  readonly memoryId: string;
  /**
   * A client to use as is (its own retry settings apply on top of this package's retries, so
   * build it with `maxAttempts: 1`). Without it a client is built from `region`, `endpoint` and
   * `credentials`, each defaulting to the SDK's own sources (`AWS_REGION`, `AWS_PROFILE`,
   * `AWS_ENDPOINT_URL_BEDROCK_AGENTCORE` / `AWS_ENDPOINT_URL`, the credential chain).
   */
  readonly client?: BedrockAgentCoreClient;
  /** AWS region, e.g. `us-east-1`. */
  readonly region?: string;
  /** Endpoint URL, e.g. an emulator's `http://127.0.0.1:PORT`. */
  readonly endpoint?: string;
  /** Credentials; default: the SDK's provider chain. */
  readonly credentials?: AgentCoreCredentials;
  /** Retries after the first attempt of a retryable failure (default 6). */
  readonly retries?: number;
  /** First retry delay in ms before jitter (default 40). */
  readonly minRetryDelayMs?: number;
  /** Longest retry delay in ms (default 2,000). */
  readonly maxRetryDelayMs?: number;
  /** Per-request timeout in ms (default 15,000). */
  readonly requestTimeoutMs?: number;
}

/** Per-request options handed to `client.send` (the request timeout, and a caller's abort signal). */
export interface AgentCoreSendOptions {
  readonly requestTimeout: number;
  readonly abortSignal?: AbortSignal;
}

/** One request: sends a command with the client and the options it is given. */
export type AgentCoreRequest<Output> = (
  client: BedrockAgentCoreClient,
  options: AgentCoreSendOptions,
) => Promise<Output>;

/** An open connection: the memory id, the client and `send` with retries and error mapping. */
export interface AgentCoreConnection {
  /** The memory id requests go to. */
  readonly memoryId: string;
  /** The underlying client. */
  readonly client: BedrockAgentCoreClient;
  /**
   * Run `request` (named `operation` in messages, e.g. `CreateEvent`), retrying retryable
   * failures with jitter; `signal` cancels the request and the retries (rejecting with its reason). Throws a `RepomemError` once retries are exhausted or for a
   * non-retryable failure.
   */
  send<Output>(operation: string, request: AgentCoreRequest<Output>, signal?: AbortSignal): Promise<Output>;
  /** Destroy a client this connection built (an injected client is left to its owner). */
  close(): void;
}

/** Throw `INVALID_ARGUMENT` unless `memoryId` has the shape the service requires. */
export function assertMemoryId(memoryId: unknown): asserts memoryId is string {
  if (typeof memoryId !== 'string' || !MEMORY_ID_PATTERN.test(memoryId)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `invalid AgentCore memory id ${JSON.stringify(memoryId)}: expected a name, "-" and 10 letters or digits (for example repomem-a1b2c3d4e5) or the memory's ARN`,
      { details: { memoryId } },
    );
  }
}

/** Open a connection (no request is sent). Throws `INVALID_ARGUMENT` for a malformed memory id. */
export function openAgentCoreConnection(options: AgentCoreConnectionOptions): AgentCoreConnection {
  assertMemoryId(options.memoryId);
  const owned = options.client === undefined;
  const client =
    options.client ??
    new BedrockAgentCoreClient({
      maxAttempts: 1,
      ...(options.region === undefined ? {} : { region: options.region }),
      ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
      ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
    });
  const retries = options.retries ?? 6;
  const requestTimeout = options.requestTimeoutMs ?? 15_000;
  const memoryId = options.memoryId;
  return {
    memoryId,
    client,
    async send<Output>(operation: string, request: AgentCoreRequest<Output>, signal?: AbortSignal): Promise<Output> {
      signal?.throwIfAborted();
      try {
        return await pRetry(
          async () => {
            try {
              return await request(
                client,
                signal === undefined ? { requestTimeout } : { requestTimeout, abortSignal: signal },
              );
            } catch (error) {
              // p-retry refuses to retry a non-Error; the SDK always throws Errors, this keeps it so.
              throw error instanceof Error ? error : new Error(String(error));
            }
          },
          {
            retries,
            factor: 2,
            minTimeout: options.minRetryDelayMs ?? 40,
            maxTimeout: options.maxRetryDelayMs ?? 2_000,
            randomize: true,
            shouldRetry: ({ error }) => signal?.aborted !== true && isRetryableAgentCoreError(error),
            ...(signal === undefined ? {} : { signal }),
          },
        );
      } catch (error) {
        // An abort is the caller's: rejected with the signal's reason, as the caller expects.
        if (signal?.aborted === true) throw signal.reason;
        if (error instanceof Error && /Region is missing/i.test(error.message)) {
          throw new RepomemError(
            'INVALID_ARGUMENT',
            'no AWS region for AgentCore: set ?region= in the store spec, AWS_REGION, or a region in the AWS profile',
            { cause: error },
          );
        }
        throw mapAgentCoreError(error, operation, memoryId);
      }
    },
    close(): void {
      if (owned) client.destroy();
    },
  };
}
