// Why: memory must never block a task, yet a misconfigured memory (a repository name the store
// cannot map, a missing table, bad credentials) must not hide behind "memory is down" forever.
// This module decides, from any error a store or SDK throws, whether a failure is a transient
// outage (degrade with a warning) or a mistake someone must fix (report as an error).
import { z } from 'zod';
import { RepomemError } from '../../errors.js';

/**
 * What kind of failure a memory operation met: `timeout` (no answer within the source's timeout,
 * or aborted), `throttled` (HTTP 429, throttling, quota), `outage` (network, 5xx, busy),
 * `configuration` (credentials, permissions, a missing table or resource, an unmappable name),
 * `corrupt` (a stored record that does not parse), `bug` (a programming error).
 */
export const MEMORY_FAILURE_CATEGORIES = ['timeout', 'throttled', 'outage', 'configuration', 'corrupt', 'bug'] as const;
/** Zod schema of a failure category. */
export const MemoryFailureCategorySchema = z.enum(MEMORY_FAILURE_CATEGORIES);
/** What kind of failure a memory operation met (see {@link MEMORY_FAILURE_CATEGORIES}). */
export type MemoryFailureCategory = z.infer<typeof MemoryFailureCategorySchema>;

/** Severity: `warning` = degrade and carry on; `error` = degrade in fail-open mode but report loudly. */
export type MemoryFailureSeverity = 'warning' | 'error';

/** A classified failure, safe to print and to store in a receipt. */
export interface MemoryFailure {
  /** Category (see {@link MemoryFailureCategory}). */
  readonly category: MemoryFailureCategory;
  /** `warning` for timeout, throttled and outage; `error` otherwise. */
  readonly severity: MemoryFailureSeverity;
  /** The error's message (first 300 characters). */
  readonly message: string;
  /** The RepomemError code, or the SDK error name or code, when there is one. */
  readonly code?: string;
}

const THROTTLE_NAMES =
  /throttl|toomanyrequests|slowdown|requestlimitexceeded|provisionedthroughputexceeded|servicequotaexceeded/i;
const CONFIGURATION_NAMES =
  /accessdenied|unauthorized|forbidden|unrecognizedclient|invalidsignature|expiredtoken|invalidclienttokenid|credentials|resourcenotfound|validationexception|nosuchbucket|nosuchtable/i;
const TIMEOUT_NAMES = /^(aborterror|timeouterror)$/i;
const BUG_NAMES = new Set(['TypeError', 'ReferenceError', 'SyntaxError', 'RangeError']);
/** PostgreSQL SQLSTATE classes and codes that mean configuration (auth, missing objects, privileges). */
const PG_CONFIGURATION = /^(28|3D|3F|42P01|42501|42883|42703)/;
/** Network error codes of Node. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const CONFIGURATION_CODES = new Set([
  'INVALID_ARGUMENT',
  'INVALID_POLICY',
  'INVALID_ENVELOPE',
  'NOT_FOUND',
  'PACKAGE_MISSING',
  'UNSUPPORTED',
  'READ_ONLY',
  'MEMORY_DISABLED',
  'EMBEDDER_MISMATCH',
  'PERMISSION_DENIED',
]);

interface ErrorFields {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly status?: unknown;
  readonly statusCode?: unknown;
  readonly $metadata?: { readonly httpStatusCode?: unknown };
  readonly details?: { readonly service?: unknown; readonly category?: unknown };
  readonly cause?: unknown;
  readonly message?: unknown;
}

/** Category suggested by one error object (not its causes), or `undefined`. */
function categoryOf(error: ErrorFields): MemoryFailureCategory | undefined {
  const name = typeof error.name === 'string' ? error.name : '';
  const code = typeof error.code === 'string' ? error.code : '';
  const service = typeof error.details?.service === 'string' ? error.details.service : '';
  const statusValue = error.$metadata?.httpStatusCode ?? error.status ?? error.statusCode;
  const status = typeof statusValue === 'number' ? statusValue : undefined;
  if (TIMEOUT_NAMES.test(name) || code === 'ABORT_ERR' || code === 'ETIMEDOUT_SOURCE') return 'timeout';
  if (THROTTLE_NAMES.test(name) || THROTTLE_NAMES.test(service) || status === 429) return 'throttled';
  if (CONFIGURATION_NAMES.test(name) || CONFIGURATION_NAMES.test(service)) return 'configuration';
  if (status === 401 || status === 403 || status === 404) return 'configuration';
  if (/^[0-9A-Z]{5}$/.test(code) && PG_CONFIGURATION.test(code)) return 'configuration';
  if (code === 'ENOTFOUND') return 'configuration';
  if (NETWORK_CODES.has(code) || (status !== undefined && status >= 500)) return 'outage';
  if (error instanceof RepomemError) {
    if (CONFIGURATION_CODES.has(error.code)) return 'configuration';
    if (error.code === 'INVALID_DOCUMENT') return 'corrupt';
    if (error.code === 'STORE_CLOSED') return 'bug';
    return undefined; // BACKEND_UNAVAILABLE, CONFLICT, LOCK_TIMEOUT: decided by the cause, else outage
  }
  if (BUG_NAMES.has(name)) return 'bug';
  return undefined;
}

/**
 * Classify `error`, looking through its `cause` chain (a store's `BACKEND_UNAVAILABLE` wrapping
 * an `AccessDeniedException` is a configuration error). First match wins, outermost first,
 * except that a configuration cause beats an outer outage. Unrecognised errors are outages.
 */
export function classifyMemoryFailure(error: unknown): MemoryFailure {
  let category: MemoryFailureCategory | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== null && typeof current === 'object'; depth += 1) {
    const found = categoryOf(current as ErrorFields);
    if (found === 'configuration') {
      category = found;
      break;
    }
    category ??= found;
    current = (current as ErrorFields).cause;
  }
  const resolved = category ?? 'outage';
  const fields = (error ?? {}) as ErrorFields;
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 300);
  const code =
    error instanceof RepomemError
      ? error.code
      : typeof fields.code === 'string'
        ? fields.code
        : typeof fields.name === 'string' && fields.name !== 'Error'
          ? fields.name
          : undefined;
  return {
    category: resolved,
    severity: resolved === 'timeout' || resolved === 'throttled' || resolved === 'outage' ? 'warning' : 'error',
    message,
    ...(code === undefined ? {} : { code }),
  };
}
