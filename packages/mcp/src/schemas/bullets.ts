// Why: the input and output shapes of the bullet tools (add, replace, remove, daily_append,
// search), the same operations and outcomes as `repomem update` and `repomem search`.
import { z } from 'zod';

const file = z.enum(['MEMORY.md', 'PROJECT.md']).describe('Memory file to edit.');
const section = z.string().min(1).describe('Section heading (the text after "## ").');

/** Input of `memory.add`. */
export const AddInput = z.object({ file, section, text: z.string().min(1).describe('Bullet text (without "- ").') });
/** Input of `memory.replace`. */
export const ReplaceInput = z.object({
  file,
  section,
  match: z.string().min(1).describe('Text that identifies exactly one bullet of the section.'),
  with: z.string().min(1).describe('New bullet text.'),
});
/** Input of `memory.remove`. */
export const RemoveInput = z.object({
  file,
  section,
  match: z.string().min(1).describe('Text that identifies exactly one bullet of the section.'),
});
/** Input of `memory.daily_append`. */
export const DailyAppendInput = z.object({
  text: z.string().min(1).describe('Entry for the daily log.'),
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .describe('Day of the log, YYYY-MM-DD in UTC (default today).'),
});
/** Input of `memory.search`. */
export const SearchInput = z.object({
  query: z.string().min(1).describe('Words to look for in the memory tree.'),
  limit: z.number().int().min(1).max(100).optional().describe('Most documents returned (default 5).'),
  snippets: z.number().int().min(1).max(20).optional().describe('Most matching lines per document (default 3).'),
  prefix: z.string().min(1).optional().describe('Only search documents under this path, e.g. "daily/".'),
});

/**
 * Outcome of a bullet operation: written (`added`, `replaced`, `collapsed`, `removed`), nothing to
 * do (`duplicate`) or a result to handle (`missing_section`, `duplicate_section`, `no_match`, `ambiguous`).
 */
export const UpdateOutput = z.object({
  kind: z.enum([
    'added',
    'duplicate',
    'replaced',
    'collapsed',
    'removed',
    'missing_section',
    'duplicate_section',
    'no_match',
    'ambiguous',
  ]),
  path: z.string(),
  bullet: z.string().optional(),
  from: z.string().optional(),
  section: z.string().optional(),
  sections: z.array(z.string()).optional(),
  lines: z.array(z.number().int()).optional(),
  match: z.string().optional(),
  candidates: z.array(z.string()).optional(),
  written: z.boolean().describe('True when the file changed.'),
});

const Snippet = z.object({
  lineNumber: z.number().int(),
  text: z.string(),
  field: z.string().optional(),
  score: z.number(),
  matchCount: z.number().int(),
});
/** Output of `memory.search` (the same shape as `repomem search --json`). */
export const SearchOutput = z.object({
  query: z.string(),
  terms: z.array(z.string()),
  documentCount: z.number().int(),
  results: z.array(
    z.object({
      path: z.string(),
      score: z.number(),
      matchCount: z.number().int(),
      matchedTerms: z.array(z.string()),
      snippets: z.array(Snippet),
    }),
  ),
  skipped: z.array(z.object({ path: z.string(), reason: z.literal('too-large'), bytes: z.number().int() })).optional(),
});
