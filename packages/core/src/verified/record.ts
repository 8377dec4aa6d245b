// Why: the one definition of a verified memory (seed 003) and of its telemetry events, as zod
// schemas, so every store, the CLI and JSON from disk are validated the same way and a memory
// without citations, with an inverted line range or with a `..` path never gets in.
import { z } from 'zod';
import { RepoSlugSchema } from '../envelope/fields.js';
import { RepomemError } from '../errors.js';
import { normalizeDocumentPath } from '../store/paths.js';
import { LEARNED_ON_FIELDS, LearnedOnSchema } from './learned-on.js';

/** Lifecycle states of a memory (seed 003): active, invalid (failed verification), superseded (corrected). */
export const MEMORY_STATUSES = ['active', 'invalid', 'superseded'] as const;
/** A memory's lifecycle state. */
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

/** Longest subject, in characters. */
export const MAX_SUBJECT_CHARS = 200;
/**
 * Longest fact a new memory may have, in characters (a memory is a durable convention, not a
 * document). Lowered from 4,000 when memories began to record where they were learned
 * (`learned_on`, `promoted_from`, `quarantine`), so the largest memory still fits in one
 * AgentCore record; stored memories keep up to {@link MAX_STORED_FACT_CHARS}.
 */
export const MAX_FACT_CHARS = 3200;
/**
 * Longest fact a stored memory may have, in characters: memories written before
 * {@link MAX_FACT_CHARS} was lowered stay readable (they predate `learned_on`, so they still fit).
 */
export const MAX_STORED_FACT_CHARS = 4000;
/** Longest reason, scope, creator or invalidation reason, in characters. */
export const MAX_NOTE_CHARS = 300;
/** Most citations one memory may carry. */
export const MAX_CITATIONS = 8;
/** Longest citation path, in characters. */
export const MAX_CITATION_PATH_CHARS = 160;
/**
 * Longest serialised memory (`JSON.stringify` of a record), in characters: every memory the
 * schema accepts fits in one AgentCore memory record (16,000 characters), so a record store can
 * keep one record per memory. The write limits above are chosen so that even the worst case
 * fits (every character of every text field escaped in JSON, every learned-on field at its
 * longest); the stored-record schema also refuses a record longer than this.
 */
export const MAX_SERIALIZED_MEMORY_CHARS = 16_000;
/** Default maximum age of a memory before it expires unless verified and used again (Copilot: 28 days). */
export const DEFAULT_MEMORY_MAX_AGE_DAYS = 28;

/**
 * A memory's max age in milliseconds from a `maxAgeDays` option (default
 * {@link DEFAULT_MEMORY_MAX_AGE_DAYS}); `INVALID_ARGUMENT` unless a positive finite number.
 */
export function memoryMaxAgeMs(option: unknown): number {
  const maxAgeDays = option ?? DEFAULT_MEMORY_MAX_AGE_DAYS;
  if (typeof maxAgeDays !== 'number' || !Number.isFinite(maxAgeDays) || maxAgeDays <= 0) {
    throw new RepomemError('INVALID_ARGUMENT', `maxAgeDays must be a positive number, got ${String(maxAgeDays)}`);
  }
  return maxAgeDays * 86_400_000;
}

const SHA_PATTERN = /^[0-9a-f]{7,64}$/;
const VERIFIED_COMMIT_PATTERN = /^[0-9a-f]{7,12}$/;
/**
 * Hex digits of a citation's `verified_commit` (an abbreviated commit id): enough to name one
 * commit in any real repository, and short enough that the largest memory still fits in one
 * AgentCore record ({@link MAX_SERIALIZED_MEMORY_CHARS}) with the field on every citation.
 */
export const VERIFIED_COMMIT_DIGITS = 12;
const SNIPPET_HASH_PATTERN = /^sha256:[0-9a-f]{64}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Control characters other than tab and newline (JSON would escape each into six characters). */
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f]/;
/** A UTF-16 surrogate without its pair (JSON would escape it into six characters). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function nonBlank(max: number, what: string) {
  return z
    .string({ error: `${what} must be a string` })
    .refine((value) => value.trim().length > 0, { message: `${what} is empty` })
    .refine((value) => value.length <= max, { message: `${what} is longer than ${max} characters` })
    .refine((value) => !CONTROL_CHARACTER.test(value), {
      message: `${what} contains a control character (only tab and newline are allowed)`,
    })
    .refine((value) => !LONE_SURROGATE.test(value), { message: `${what} contains an unpaired surrogate` });
}

/** A repository-relative file path: `/`-separated, no `..`, no leading `/` (normalised). */
export const CitationPathSchema = z
  .string({ error: 'citation path must be a string' })
  .max(MAX_CITATION_PATH_CHARS, { message: `citation path is longer than ${MAX_CITATION_PATH_CHARS} characters` })
  .refine((value) => !CONTROL_CHARACTER.test(value) && !LONE_SURROGATE.test(value), {
    message: 'citation path contains a control character or an unpaired surrogate',
  })
  .transform((value, ctx) => {
    try {
      return normalizeDocumentPath(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message, input: value });
      return z.NEVER;
    }
  });

/** A code location supporting a memory (seed 003). Lines are 1-indexed and inclusive. */
export const CitationSchema = z
  .object({
    path: CitationPathSchema,
    line_start: z.number().int().min(1, { message: 'line_start must be >= 1' }),
    line_end: z.number().int().min(1, { message: 'line_end must be >= 1' }),
    sha: z.string().regex(SHA_PATTERN, { message: 'sha must be 7-64 lowercase hex digits' }).optional(),
    snippet_hash: z
      .string()
      .regex(SNIPPET_HASH_PATTERN, { message: 'snippet_hash must be "sha256:" and 64 lowercase hex digits' })
      .optional(),
    /**
     * The commit the citation was last verified at (abbreviated to {@link VERIFIED_COMMIT_DIGITS}
     * hex digits). Verification maps the cited lines from it to the commit being checked through
     * renames and moved lines before searching the snippet; absent in older records.
     */
    verified_commit: z
      .string()
      .regex(VERIFIED_COMMIT_PATTERN, { message: 'verified_commit must be 7-12 lowercase hex digits' })
      .optional(),
  })
  .strict()
  .refine((citation) => citation.line_end >= citation.line_start, {
    message: 'line_end must be >= line_start',
    path: ['line_end'],
  });
/** A validated citation. */
export type Citation = z.output<typeof CitationSchema>;

/** A memory id: a lowercase UUID. */
export const MemoryIdSchema = z.string().regex(UUID_PATTERN, { message: 'memory id must be a lowercase UUID' });

const IsoTimestampSchema = z.iso.datetime({ offset: true, message: 'expected an ISO 8601 timestamp' });

/** A stored verified memory (seed 003's MemoryRecord plus lifecycle fields). */
export const VerifiedMemorySchema = z
  .object({
    id: MemoryIdSchema,
    repo: RepoSlugSchema,
    subject: nonBlank(MAX_SUBJECT_CHARS, 'subject'),
    /** The fact; stored memories written before the limit was lowered keep up to 4,000 characters. */
    fact: nonBlank(MAX_STORED_FACT_CHARS, 'fact'),
    /** Part of the codebase the memory is about (seed 004), e.g. `src/legacy/`; `null` = whole repository. */
    scope: nonBlank(MAX_NOTE_CHARS, 'scope').nullable(),
    citations: z
      .array(CitationSchema)
      .min(1, { message: 'a memory needs at least one citation' })
      .max(MAX_CITATIONS, { message: `a memory may carry at most ${MAX_CITATIONS} citations` }),
    reason: nonBlank(MAX_NOTE_CHARS, 'reason').nullable(),
    created_by: nonBlank(MAX_NOTE_CHARS, 'created_by').nullable(),
    created_at: IsoTimestampSchema,
    refreshed_at: IsoTimestampSchema,
    expires_at: IsoTimestampSchema,
    status: z.enum(MEMORY_STATUSES),
    /** Id of the memory that replaced this one (status `superseded`). */
    superseded_by: MemoryIdSchema.nullable(),
    /** Id of the memory this one replaced (the correction chain, newest to oldest). */
    supersedes: MemoryIdSchema.nullable(),
    /** Why the memory was invalidated (status `invalid`). */
    invalid_reason: nonBlank(MAX_NOTE_CHARS, 'invalid_reason').nullable(),
    verification_count: z.number().int().min(0),
    /** Optimistic-concurrency counter: 1 when stored, +1 on every change. */
    revision: z.number().int().min(1),
    ...LEARNED_ON_FIELDS,
  })
  .strict()
  .refine((memory) => JSON.stringify(memory).length <= MAX_SERIALIZED_MEMORY_CHARS, {
    message: `memory is longer than ${MAX_SERIALIZED_MEMORY_CHARS} characters as JSON (a fact written before the 3,200-character limit leaves no room for where it was learned)`,
  });
/** A validated verified memory. */
export type VerifiedMemory = z.output<typeof VerifiedMemorySchema>;

/** Input of `store` (seed 003's StoreMemoryInput, plus `scope`). */
export const StoreMemoryInputSchema = z
  .object({
    repo: RepoSlugSchema,
    subject: nonBlank(MAX_SUBJECT_CHARS, 'subject'),
    fact: nonBlank(MAX_FACT_CHARS, 'fact'),
    citations: z
      .array(CitationSchema, { error: 'citations must be an array' })
      .min(1, { message: 'a memory needs at least one citation' })
      .max(MAX_CITATIONS, { message: `a memory may carry at most ${MAX_CITATIONS} citations` }),
    reason: nonBlank(MAX_NOTE_CHARS, 'reason').optional(),
    scope: nonBlank(MAX_NOTE_CHARS, 'scope').optional(),
    created_by: nonBlank(MAX_NOTE_CHARS, 'created_by').optional(),
    /**
     * The commit and branch of the task that learned it (see `resolveLearnedOn`); absent = the
     * default branch's scope.
     */
    learned_on: LearnedOnSchema.optional(),
  })
  .strict();
/** Input of `store`, as callers write it. */
export type StoreMemoryInput = z.input<typeof StoreMemoryInputSchema>;

/** Telemetry event types (seed 003). */
export const TELEMETRY_EVENT_TYPES = [
  'created',
  'retrieved',
  'verified_valid',
  'verified_invalid',
  'corrected',
  'refreshed',
  'superseded',
  'applied',
] as const;
/** A telemetry event type. */
export type TelemetryEventType = (typeof TELEMETRY_EVENT_TYPES)[number];

/** One telemetry event about one memory. */
export const TelemetryEventSchema = z
  .object({
    type: z.enum(TELEMETRY_EVENT_TYPES),
    memory_id: MemoryIdSchema,
    repo: RepoSlugSchema,
    at: IsoTimestampSchema,
    /** Small JSON details (reason, related memory id, counts). */
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
/** A telemetry event. */
export type TelemetryEvent = z.output<typeof TelemetryEventSchema>;

/**
 * The key under which contradictions are detected: the subject lowercased with runs of
 * whitespace collapsed and trimmed. Two active memories with the same key and scope contradict;
 * the newer supersedes the older (seed 004).
 */
export function subjectKey(subject: string): string {
  return subject.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The scope key: `null` (whole repository) stays `null`; otherwise trimmed, without a trailing `/`. */
export function scopeKey(scope: string | null | undefined): string | null {
  if (scope === null || scope === undefined) return null;
  const trimmed = scope.trim().replace(/\/+$/, '');
  return trimmed.length === 0 ? null : trimmed;
}
