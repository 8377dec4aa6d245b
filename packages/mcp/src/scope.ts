// Why: a server is scoped to one repository at start, and the verified-memory tools still accept
// the `repo` argument of their published shapes; this is the one check that a given repository is
// the server's own, so no tool reaches another repository. On a document store, repomem's own
// records (every repository's tasks and verified memories) live under `.repomem/`: resources and
// history tools alike treat that directory as out of scope.
import { RepomemError, type ScopeOptions } from '@repomem/core';

/** Documents under this prefix are repomem's own records (any repository's), never served as memory text. */
export const INTERNAL_PREFIX = '.repomem/';

/** True for a (normalized) document path under {@link INTERNAL_PREFIX}, or that directory itself. */
export function isInternalPath(path: string): boolean {
  return path === INTERNAL_PREFIX.slice(0, -1) || path.startsWith(INTERNAL_PREFIX);
}

/** `path` (normalized), after checking it is a memory document and not one of repomem's records. */
export function scopedDocumentPath(path: string): string {
  if (isInternalPath(path)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${path} is out of scope: ${INTERNAL_PREFIX} holds repomem's own records, not memory documents (use the task and verified-memory tools)`,
      { details: { path } },
    );
  }
  return path;
}

/**
 * The branch scope of a read (issue 26): the call's `ref` (a branch or revision), else the
 * server's branch (`$GITHUB_HEAD_REF` / `$GITHUB_REF` when it started in Actions), else nothing
 * (the citation reader's current branch).
 */
export function branchScope(context: { readonly branch: string | undefined }, ref: string | undefined): ScopeOptions {
  if (ref !== undefined) return { ref };
  return context.branch === undefined ? {} : { branch: context.branch };
}

/** The server's repository, after checking that `given` (when present) names it. */
export function scopedRepo(scope: string, given: string | undefined): string {
  if (given !== undefined && given !== scope) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `this server is scoped to the repository ${scope}; ${given} is out of scope (omit repo or pass ${scope})`,
      { details: { repo: given, scope } },
    );
  }
  return scope;
}
