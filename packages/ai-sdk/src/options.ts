// Why: the options of `repomemTools` come from application code that may be JavaScript or built
// from configuration, so their shape is checked once with a schema and a mistake fails with
// `INVALID_ARGUMENT` naming the field, before any store is opened.
import type {
  CitationReader,
  MemoryStore,
  StoreRegistry,
  TaskRecordBackend,
  VerifiedMemoryBackend,
} from '@repomem/core';
import { z } from 'zod';

/** Options of {@link repomemTools}. */
export interface RepomemToolsOptions {
  /** An open store (you keep ownership: `close()` leaves it open). Give this or `spec`. */
  readonly store?: MemoryStore;
  /** A store spec (`sqlite:.repomem/repomem.db`, `dir:./memory`, `git:.#agent/memory`, `postgres://...`); default `sqlite:.repomem/repomem.db`. */
  readonly spec?: string;
  /** The repository every tool is scoped to (`owner/name`). */
  readonly repo: string;
  /** `enabled` (default) or `read-only` (no writing tool is listed, nothing is recorded). */
  readonly mode?: 'enabled' | 'read-only';
  /** Where cited code is read: a reader or a spec (`git:<dir>[#ref]`, `dir:<worktree>`, `github`); default the git repository around `cwd`. */
  readonly citationReader?: CitationReader | string;
  /** Directory relative specs resolve against (default `process.cwd()`). */
  readonly cwd?: string;
  /** Environment for specs (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Verified-memory backend instead of the store's own. */
  readonly verifiedBackend?: VerifiedMemoryBackend;
  /** Task-record backend (episodes, rules, learnings, preferences) instead of the store's own. */
  readonly taskBackend?: TaskRecordBackend;
  /** Registry that opens `spec` (default core's). */
  readonly registry?: StoreRegistry;
}

const object = z.custom<object>((value) => value !== null && typeof value === 'object', 'expected an object');

/** The schema of {@link RepomemToolsOptions} (objects are checked to be objects; the store contract is core's). */
export const RepomemToolsOptionsSchema = z.object({
  store: object.optional(),
  spec: z.string().min(1).optional(),
  repo: z.string(),
  mode: z.enum(['enabled', 'read-only']).optional(),
  citationReader: z.union([z.string().min(1), object]).optional(),
  cwd: z.string().min(1).optional(),
  env: z.record(z.string(), z.string().optional()).optional(),
  verifiedBackend: object.optional(),
  taskBackend: object.optional(),
  registry: object.optional(),
});
