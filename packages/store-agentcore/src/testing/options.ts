// Why: the emulator's public option and handle types (the adapter's tests code against them) and
// the zod schema that checks options where they enter, tied to the interfaces with `satisfies`.
import { z } from 'zod';
import type { FailedExtractionJobSeed } from './operations/extraction.js';
import type { FieldIssue } from './validate.js';

/** Memory id the emulator serves when no `memories` option is given (valid under the model's pattern). */
export const DEFAULT_EMULATOR_MEMORY_ID = 'repomem_emulator-EMULATOR01';

/**
 * Credentials to give the SDK client talking to the emulator. Requests must be SigV4-signed with
 * this access key id (unless `accessKeyIds: 'any'`); the signature itself is not checked.
 */
export const EMULATOR_CREDENTIALS: { readonly accessKeyId: string; readonly secretAccessKey: string } = {
  // Not frozen: the SDK records the credential source on the object it is given.
  accessKeyId: 'repomem-emulator',
  secretAccessKey: 'repomem-emulator-secret',
};

/**
 * A session token the emulator treats as expired: a client signing with
 * `{ ...EMULATOR_CREDENTIALS, sessionToken: EMULATOR_EXPIRED_SESSION_TOKEN }` gets 403
 * ExpiredTokenException, as the service answers an expired temporary credential.
 */
export const EMULATOR_EXPIRED_SESSION_TOKEN = 'repomem-emulator-expired';

/** Fault injection: a seeded fraction of requests gets one of the listed faults. */
export interface AgentCoreEmulatorFaults {
  /** Fraction of requests (0..1) that get a fault. */
  readonly rate: number;
  /**
   * Which faults to draw from: `throttle` (429 ThrottledException, before serving),
   * `server-error` (500 ServiceException or 503, before serving), `reset` (socket destroyed
   * before serving), `slow` (answer delayed by `slowMs`, then served), `truncated` (served, then
   * headers and half the body sent and the socket destroyed: the write happened, the client
   * cannot know).
   */
  readonly kinds: readonly ('throttle' | 'server-error' | 'reset' | 'slow' | 'truncated')[];
  /** Seed of the deterministic random source (default 1). */
  readonly seed?: number;
  /** Delay of a `slow` response in ms (default 2000). */
  readonly slowMs?: number;
  /** Stop injecting after this many faults (default unlimited): "fail once, then succeed". */
  readonly maxFaults?: number;
}

/** Options of {@link startAgentCoreEmulator}. */
export interface AgentCoreEmulatorOptions {
  /** Memory ids that exist (default [DEFAULT_EMULATOR_MEMORY_ID]); others get ResourceNotFoundException. */
  readonly memories?: readonly string[];
  /** Added latency per request in ms (default 0). */
  readonly latencyMs?: number;
  /** Throttle (ThrottledException, HTTP 429) beyond this many requests per second. */
  readonly requestsPerSecond?: number;
  /**
   * Also enforce the service's documented per-operation quotas (default false): CreateEvent with
   * a conversational payload 5 per second per actor and session, ListMemoryRecords and
   * RetrieveMemoryRecords 30 per second, every other operation 20 per second (per memory).
   */
  readonly serviceQuotas?: boolean;
  /** Fault injection (default none). */
  readonly faults?: AgentCoreEmulatorFaults;
  /**
   * Order of ListEvents results: `oldest-first` (default; eventTimestamp, then creation) or
   * `newest-first`. The service documents no order; run a client under both to prove it sorts
   * events itself.
   */
  readonly eventOrder?: 'oldest-first' | 'newest-first';
  /** Region the endpoint claims (default 'us-east-1'); a request signed for another region gets 403. */
  readonly region?: string;
  /**
   * Access key ids accepted in the SigV4 `Authorization` header (default
   * `[EMULATOR_CREDENTIALS.accessKeyId]`); `'any'` accepts every signed request. Others get 403
   * UnrecognizedClientException, an unsigned request 403 MissingAuthenticationTokenException.
   */
  readonly accessKeyIds?: readonly string[] | 'any';
  /**
   * Check every response against the model's output (or error) shape (default true). A response
   * that fails is answered as 500 ServiceException instead and counted in
   * `stats().responseValidationErrors`.
   */
  readonly validateResponses?: boolean;
  /** TCP port on 127.0.0.1 (default 0: any free port). */
  readonly port?: number;
}

/** Request counters since start or the last `resetStats()`. */
export interface AgentCoreEmulatorStats {
  /** Requests received (every HTTP request, faulted or not). */
  readonly requests: number;
  /** Requests per operation name (unrouted requests under `UnknownOperation`). */
  readonly byOperation: Readonly<Record<string, number>>;
  /** Injected faults (from `faults`; not the `requestsPerSecond` quota). */
  readonly faults: number;
  /** Requests answered with a ValidationException for their input. */
  readonly validationErrors: number;
  /** Requests answered 429 because of `requestsPerSecond` or `serviceQuotas`. */
  readonly throttled: number;
  /** Responses that failed the model's output shape (a bug in the emulator; 0 in a healthy run). */
  readonly responseValidationErrors: number;
}

/** A running emulator. */
export interface AgentCoreEmulator {
  /** `http://127.0.0.1:<port>`: pass as the SDK client's `endpoint`. */
  readonly endpoint: string;
  /** Region the endpoint claims. */
  readonly region: string;
  /** The first memory id. */
  readonly memoryId: string;
  /** Counters since start or the last reset. */
  stats(): AgentCoreEmulatorStats;
  /** Zeroes the counters. */
  resetStats(): void;
  /** Replaces fault injection (undefined: none); the random source restarts from the seed. */
  setFaults(faults: AgentCoreEmulatorFaults | undefined): void;
  /** Sets the added latency per request in ms. */
  setLatency(ms: number): void;
  /** Sets (or with undefined removes) the requests-per-second quota. */
  setRequestsPerSecond(perSecond: number | undefined): void;
  /**
   * Seeds a failed long-term extraction job in a memory (default the first), so
   * ListMemoryExtractionJobs lists it and StartMemoryExtractionJob can re-process it. Returns its id.
   */
  addFailedExtractionJob(job: FailedExtractionJobSeed, memoryId?: string): string;
  /** The response-shape problems seen so far (each with the operation), for test assertions. */
  responseIssues(): readonly { readonly operation: string; readonly issues: readonly FieldIssue[] }[];
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

const memoryIdPattern = /^[a-zA-Z][a-zA-Z0-9-_]{0,99}-[a-zA-Z0-9]{10}$/;

/** Checks fault options where they enter. */
export const faultsSchema = z.object({
  rate: z.number().min(0).max(1),
  kinds: z.array(z.enum(['throttle', 'server-error', 'reset', 'slow', 'truncated'])).readonly(),
  seed: z.number().int().optional(),
  slowMs: z.number().int().min(0).optional(),
  maxFaults: z.number().int().min(0).optional(),
}) satisfies z.ZodType<AgentCoreEmulatorFaults>;

/** Checks emulator options where they enter. */
export const optionsSchema = z.object({
  memories: z
    .array(z.string().regex(memoryIdPattern, 'must be a memory id such as name-0123456789'))
    .min(1)
    .readonly()
    .optional(),
  latencyMs: z.number().min(0).optional(),
  requestsPerSecond: z.number().positive().optional(),
  serviceQuotas: z.boolean().optional(),
  faults: faultsSchema.optional(),
  eventOrder: z.enum(['oldest-first', 'newest-first']).optional(),
  region: z
    .string()
    .regex(/^[a-z0-9-]+$/)
    .optional(),
  accessKeyIds: z.union([z.array(z.string()).readonly(), z.literal('any')]).optional(),
  validateResponses: z.boolean().optional(),
  port: z.number().int().min(0).max(65535).optional(),
}) satisfies z.ZodType<AgentCoreEmulatorOptions>;
