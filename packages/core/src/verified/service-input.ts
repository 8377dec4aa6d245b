// Why: every argument of the verified-memory service is outside data; it is validated here with
// the record schemas so a bad call throws INVALID_ARGUMENT naming the problem before anything is
// read or written.
import type { z } from 'zod';
import { RepoSlugSchema } from '../envelope/fields.js';
import { RepomemError } from '../errors.js';
import { refuseSecrets } from '../store/secret-scan.js';
import {
  type Citation,
  CitationSchema,
  MAX_NOTE_CHARS,
  MemoryIdSchema,
  type StoreMemoryInput,
  StoreMemoryInputSchema,
} from './record.js';

/** A parsed `store` input. */
export type ParsedStoreInput = z.output<typeof StoreMemoryInputSchema>;

/** Format zod issues as `path: message; ...`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid ${what}: ${describeIssues(parsed.error)}`);
  }
  return parsed.data;
}

/** A repository slug, or `INVALID_ARGUMENT`. */
export function parseRepo(repo: unknown): string {
  return parseWith(RepoSlugSchema, repo, 'repo');
}

/** A memory id, or `INVALID_ARGUMENT`. */
export function parseMemoryId(id: unknown): string {
  return parseWith(MemoryIdSchema, id, 'memory id');
}

/** A `store` input, or `INVALID_ARGUMENT`. */
export function parseStoreInput(input: StoreMemoryInput): ParsedStoreInput {
  if (input === null || typeof input !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', 'invalid memory: expected an object');
  }
  const parsed = parseWith(StoreMemoryInputSchema, input, 'memory');
  // Record backends (SQLite rows) bypass the document batch scan: the text fields are scanned here.
  for (const field of ['subject', 'fact', 'reason', 'scope', 'created_by'] as const) {
    const value = parsed[field];
    if (typeof value === 'string') refuseSecrets(`memory ${field}`, value);
  }
  return parsed;
}

/** Citations, or `INVALID_ARGUMENT`. */
export function parseCitations(citations: unknown): Citation[] {
  if (!Array.isArray(citations)) throw new RepomemError('INVALID_ARGUMENT', 'invalid citations: expected an array');
  return citations.map((citation, index) => parseWith(CitationSchema, citation, `citation ${index}`));
}

/** One citation, or `INVALID_ARGUMENT`. */
export function parseCitation(citation: unknown): Citation {
  return parseWith(CitationSchema, citation, 'citation');
}

/** A free-text note (invalidation reason), or `INVALID_ARGUMENT`. */
export function parseNote(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RepomemError('INVALID_ARGUMENT', `invalid ${what}: expected a non-empty string`);
  }
  if (value.length > MAX_NOTE_CHARS) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid ${what}: longer than ${MAX_NOTE_CHARS} characters`);
  }
  refuseSecrets(what, value);
  return value;
}

/** A positive limit (default `fallback`, at most `max`), or `INVALID_ARGUMENT`. */
export function parseLimit(limit: unknown, fallback: number, max: number): number {
  if (limit === undefined) return fallback;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1 || limit > max) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `invalid limit: expected an integer from 1 to ${max}, got ${String(limit)}`,
    );
  }
  return limit;
}

/** Optional event details: a plain JSON object, or `INVALID_ARGUMENT`. */
export function parseDetails(details: unknown): Record<string, unknown> | undefined {
  if (details === undefined) return undefined;
  if (details === null || typeof details !== 'object' || Array.isArray(details)) {
    throw new RepomemError('INVALID_ARGUMENT', 'invalid details: expected a plain object');
  }
  let json: string;
  try {
    json = JSON.stringify(details);
  } catch (error) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid details: not JSON-serialisable (${(error as Error).message})`);
  }
  if (json.length > 16_384) throw new RepomemError('INVALID_ARGUMENT', 'invalid details: more than 16 KiB of JSON');
  return JSON.parse(json) as Record<string, unknown>;
}
