// Why: a server is scoped to one repository at start, and the verified-memory tools still accept
// the `repo` argument of their published shapes; this is the one check that a given repository is
// the server's own, so no tool reaches another repository.
import { RepomemError } from '@repomem/core';

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
