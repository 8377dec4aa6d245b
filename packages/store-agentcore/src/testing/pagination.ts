// Why: the service's `nextToken` is opaque and tied to the query that produced it; a token that
// encodes the last key returned (not an offset) keeps pages stable while items are added or
// removed between calls, and a fingerprint of the query rejects a token reused for another query.
import { createHash } from 'node:crypto';
import { EmulatorServiceError } from './errors.js';

/** Sort key of a listed item: compared element by element. */
export type PageKey = readonly (number | string)[];

/** Default page size of the service's list operations. */
export const DEFAULT_MAX_RESULTS = 20;

function compareKeys(a: PageKey, b: PageKey): number {
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const left = a[index];
    const right = b[index];
    if (left === right) continue;
    if (left === undefined) return -1;
    if (right === undefined) return 1;
    return left < right ? -1 : 1;
  }
  return 0;
}

/** A short fingerprint of the members that define a result set (not `nextToken`/`maxResults`). */
export function queryFingerprint(operation: string, query: unknown): string {
  return createHash('sha256')
    .update(`${operation}\n${JSON.stringify(query)}`)
    .digest('base64url')
    .slice(0, 16);
}

function invalidToken(): EmulatorServiceError {
  const message =
    "Value at 'nextToken' failed to satisfy constraint: Member must be a token returned by a previous call";
  return new EmulatorServiceError('ValidationException', 400, `1 validation error detected: ${message}`, {
    reason: 'FieldValidationFailed',
    fieldList: [{ name: 'nextToken', message }],
  });
}

function decodeToken(token: string, fingerprint: string): PageKey {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof decoded === 'object' && decoded !== null && 'f' in decoded && 'k' in decoded) {
      const { f, k } = decoded;
      if (
        f === fingerprint &&
        Array.isArray(k) &&
        k.every((part) => typeof part === 'number' || typeof part === 'string')
      ) {
        return k;
      }
    }
  } catch {
    // falls through to the service's answer for a token it did not issue
  }
  throw invalidToken();
}

/**
 * One page of `items` (already in key order) after the key in `nextToken`, at most `maxResults`
 * long, with a token for the rest when more remain.
 */
export function paginate<T>(
  items: readonly T[],
  keyOf: (item: T) => PageKey,
  request: { readonly maxResults?: number; readonly nextToken?: string },
  fingerprint: string,
): { readonly page: T[]; readonly nextToken?: string } {
  const limit = request.maxResults ?? DEFAULT_MAX_RESULTS;
  const after = request.nextToken === undefined ? undefined : decodeToken(request.nextToken, fingerprint);
  const remaining = after === undefined ? items : items.filter((item) => compareKeys(keyOf(item), after) > 0);
  const page = remaining.slice(0, limit);
  const last = page[page.length - 1];
  if (remaining.length <= limit || last === undefined) return { page };
  const nextToken = Buffer.from(JSON.stringify({ f: fingerprint, k: keyOf(last) }), 'utf8').toString('base64url');
  return { page, nextToken };
}

/** Sorts by key (stable), for handlers that build the ordered list `paginate` expects. */
export function sortByKey<T>(items: readonly T[], keyOf: (item: T) => PageKey): T[] {
  return [...items].sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
}
