// Why: the input and output shapes of the verified-memory tools (the memory.* namespace of the
// verified-memory design: store, get_recent, ... stats), as zod schemas the server registers, so
// clients see JSON Schemas and every argument is validated before the service runs. Inputs reuse
// core's record schemas; outputs are plain shapes (no transforms) so they convert to JSON Schema.
import {
  CitationSchema,
  MAX_RECALL_LIMIT,
  MEMORY_STATUSES,
  MemoryIdSchema,
  RepoSlugSchema,
  TELEMETRY_EVENT_TYPES,
} from '@repomem/core';
import { z } from 'zod';

const repo = RepoSlugSchema.optional().describe(
  'Repository "owner/name". Optional: the server is scoped to one repository, and any other value is refused.',
);
const memoryId = MemoryIdSchema.describe('Id of the memory (a lowercase UUID).');
const citations = z
  .array(CitationSchema)
  .min(1)
  .describe('Code locations supporting the memory: path relative to the repository root, 1-based inclusive lines.');
const ref = z.string().min(1).optional().describe('Git revision to read the code at (default HEAD).');
const text = (what: string) => z.string().describe(what);
/** The ref a read is scoped to (branch scope). */
export const scopeRef = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe(
    "The branch the agent works on (default: the server's: $GITHUB_HEAD_REF, $GITHUB_REF, else the clone's current branch). Memories learned on another branch are served only when this ref's history contains the commit they were learned at; quarantined ones never.",
  );

/** Input of `memory.store`. */
export const StoreInput = z.object({
  repo,
  subject: text('Brief topic, e.g. "API version synchronization".'),
  fact: text('The durable convention or invariant learned.'),
  citations,
  reason: text('Why this matters (which problem it prevents).').optional(),
  scope: text(
    'Part of the codebase the memory is about, e.g. "src/legacy/"; absent means the whole repository.',
  ).optional(),
  created_by: text('Agent or user id.').optional(),
});
/** Input of `memory.get_recent`. */
export const GetRecentInput = z.object({
  repo,
  limit: z.number().int().min(1).max(MAX_RECALL_LIMIT).optional().describe('Most memories returned (default 50).'),
  ref: scopeRef,
});
/** Input of `memory.search_by_path`. */
export const SearchByPathInput = z.object({
  repo,
  path: text('File path relative to the repository root.'),
  ref: scopeRef,
});
/** Input of `memory.refresh` and `memory.log_applied` without details. */
export const MemoryIdInput = z.object({ repo, memory_id: memoryId });
/** Input of `memory.invalidate`. */
export const InvalidateInput = z.object({ repo, memory_id: memoryId, reason: text('Why the memory no longer holds.') });
/** Input of `memory.supersede`. */
export const SupersedeInput = z.object({
  repo,
  memory_id: memoryId,
  subject: text('Subject of the corrected memory.'),
  fact: text('The corrected fact.'),
  citations,
  reason: text('Why the correction matters.').optional(),
  scope: text('Part of the codebase the memory is about.').optional(),
  created_by: text('Agent or user id.').optional(),
});
/** Input of `memory.log_applied`. */
export const LogAppliedInput = z.object({
  repo,
  memory_id: memoryId,
  details: z.record(z.string(), z.unknown()).optional().describe('Optional JSON details of the use (task id...).'),
});
/** Input of `memory.read_citation`. */
export const ReadCitationInput = z.object({ repo, citation: CitationSchema, ref });
/** Input of `memory.verify_citations`. */
export const VerifyCitationsInput = z.object({ repo, citations, ref });
/** Input of `memory.stats`. */
export const StatsInput = z.object({ repo });
/** Input of `memory.impact`. */
export const ImpactInput = z.object({
  repo,
  base: z.string().min(1).describe('The base revision (the branch the change goes into), e.g. origin/main.'),
  head: z.string().min(1).optional().describe('The revision to check (default HEAD).'),
});

/** A citation as returned. */
export const CitationOutput = z.object({
  path: z.string(),
  line_start: z.number().int(),
  line_end: z.number().int(),
  sha: z.string().optional(),
  snippet_hash: z.string().optional(),
  verified_commit: z.string().optional().describe('The commit the citation was last verified at (abbreviated id).'),
});

/** A stored memory (the verified-memory MemoryRecord plus its lifecycle fields). */
export const MemoryOutput = z.object({
  id: z.string(),
  repo: z.string(),
  subject: z.string(),
  fact: z.string(),
  scope: z.string().nullable(),
  citations: z.array(CitationOutput),
  reason: z.string().nullable(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  refreshed_at: z.string(),
  expires_at: z.string(),
  status: z.enum(MEMORY_STATUSES),
  superseded_by: z.string().nullable(),
  supersedes: z.string().nullable(),
  invalid_reason: z.string().nullable(),
  verification_count: z.number().int(),
  revision: z.number().int(),
  learned_on: z
    .object({ commit: z.string(), ref: z.string() })
    .optional()
    .describe('The commit and branch the memory was learned on; absent = the default branch (shared everywhere).'),
  promoted_from: z
    .object({ ref: z.string(), commit: z.string(), pull_request: z.number().int().optional() })
    .optional()
    .describe('Where it was learned before its branch merged (set on promotion).'),
  quarantine: z
    .object({ reason: z.string(), ref: z.string(), pull_request: z.number().int().optional(), at: z.string() })
    .optional()
    .describe("Set when its branch's pull request closed unmerged; such a memory is never served."),
});

/** The check of one citation: `valid`, `relocated` (moved lines), `invalid` or `unavailable`. */
export const CitationCheckOutput = z.object({
  kind: z.enum(['valid', 'relocated', 'invalid', 'unavailable']),
  citation: CitationOutput,
  relocated: CitationOutput.optional(),
  content: z.string().optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
  revision: z.string().optional().describe('The revision read (a commit id for git sources).'),
});

/** Output of `memory.store`: `stored` (with the memories it superseded) or `rejected` (a citation does not hold). */
export const StoreOutput = z.object({
  kind: z.enum(['stored', 'rejected']),
  memory: MemoryOutput.optional(),
  superseded: z.array(MemoryOutput).optional(),
  checks: z.array(CitationCheckOutput).optional(),
});
/** A list of memories. */
export const MemoriesOutput = z.object({ memories: z.array(MemoryOutput) });
/** Output of refresh, invalidate and log_applied: `changed`, `not_found` or `not_active`. */
export const ChangeOutput = z.object({
  kind: z.enum(['changed', 'not_found', 'not_active']),
  memory: MemoryOutput.optional(),
  id: z.string().optional(),
});
/** Output of `memory.supersede`. */
export const SupersedeOutput = z.object({
  kind: z.enum(['superseded', 'not_found', 'not_active', 'rejected']),
  previous: MemoryOutput.optional(),
  replacement: MemoryOutput.optional(),
  memory: MemoryOutput.optional(),
  id: z.string().optional(),
  checks: z.array(CitationCheckOutput).optional(),
});
/** One citation in a verification result (the verified-memory VerificationResult entry plus the check kind). */
export const VerifiedCitationOutput = z.object({
  path: z.string(),
  line_start: z.number().int(),
  line_end: z.number().int(),
  exists: z.boolean(),
  kind: z.enum(['valid', 'relocated', 'invalid', 'unavailable']),
  content: z.string().optional(),
  error: z.string().optional(),
  relocated: CitationOutput.optional(),
});
/** Output of `memory.verify_citations`. */
export const VerificationOutput = z.object({
  valid: z.boolean(),
  citations: z.array(VerifiedCitationOutput),
  valid_count: z.number().int(),
  invalid_count: z.number().int(),
  unavailable_count: z.number().int(),
});
/** Output of `memory.stats`. */
export const StatsOutput = z.object({
  repo: z.string(),
  by_status: z.record(z.enum(MEMORY_STATUSES), z.number().int()),
  expired: z.number().int(),
  events: z.record(z.enum(TELEMETRY_EVENT_TYPES), z.number().int()),
  verification_success_rate: z.number().nullable(),
});

/** One touched citation in `memory.impact`. */
export const CitationImpactOutput = z.object({
  kind: z.enum(['valid', 'reanchored', 'invalidated', 'unknown']),
  citation: CitationOutput,
  anchored: CitationOutput.optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
});
/** Output of `memory.impact`: the memories the diff touches, worst first. */
export const ImpactOutput = z.object({
  repo: z.string(),
  base: z.string(),
  head: z.string(),
  checked: z.number().int(),
  counts: z.object({
    invalidated: z.number().int(),
    unknown: z.number().int(),
    reanchored: z.number().int(),
    valid: z.number().int(),
  }),
  touched: z.array(
    z.object({
      memory: MemoryOutput,
      outcome: z.enum(['valid', 'reanchored', 'invalidated', 'unknown']),
      citations: z.array(CitationImpactOutput),
    }),
  ),
});
