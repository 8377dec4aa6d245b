// Why: the input and output shapes of the history tools (what the memory said, and when), for
// stores that keep past revisions.
import { z } from 'zod';

/** Input of `memory.history`. */
export const HistoryInput = z.object({
  path: z.string().min(1).optional().describe('Only revisions that changed this document, e.g. "MEMORY.md".'),
  limit: z.number().int().min(1).max(1000).optional().describe('Most revisions returned, newest first (default 20).'),
});
/** Input of `memory.read_at`. */
export const ReadAtInput = z.object({
  path: z.string().min(1).describe('Document path, e.g. "MEMORY.md".'),
  at: z
    .string()
    .min(1)
    .describe('A revision id (or ref name), or an ISO 8601 time meaning the last revision at or before it.'),
});

const Revision = z.object({
  revision: z.string(),
  time: z.string(),
  message: z.string(),
  body: z.string(),
  trailers: z.record(z.string(), z.string()),
  author: z.string(),
  parents: z.array(z.string()),
});
/** Output of `memory.history`. */
export const HistoryOutput = z.object({ revisions: z.array(Revision) });
/** Output of `memory.read_at`: `found` (with the text), `absent` at that revision, or `no_revision` yet. */
export const ReadAtOutput = z.object({
  status: z.enum(['found', 'absent', 'no_revision']),
  revision: Revision.optional(),
  path: z.string(),
  text: z.string().optional(),
});
