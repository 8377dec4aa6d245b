// Why: one function turns a store spec into an open MemoryStore, so the CLI and library users
// get the same stores, the same default (`DEFAULT_STORE_SPEC`) and the same repository scope rule.
// The store packages are imported on demand: a directory user never loads SQLite or git code.
import { type MemoryStore, openDirectoryStore, RepomemError, repoSlugProblem } from '@repomem/core';
import { DEFAULT_STORE_SPEC, formatStoreSpec, parseStoreSpec, resolveStoreSpec, type StoreSpec } from './store-spec.js';

/** Repository scope of the SQLite document store when neither `--repo` nor `$GITHUB_REPOSITORY` names one. */
export const DEFAULT_STORE_REPO = 'local/default';

/** Options of {@link openStoreFromSpec}. */
export interface OpenStoreOptions {
  /** Directory relative paths resolve against (default `process.cwd()`). */
  readonly cwd?: string;
  /**
   * Repository slug `owner/name` the SQLite document store is scoped to (default
   * {@link DEFAULT_STORE_REPO}); ignored by directory and git stores, which hold one tree.
   */
  readonly repo?: string;
  /**
   * Open without writing anything. SQLite opens the file read-only and never creates it
   * (`NOT_FOUND` when missing); directory and git stores are unaffected (pass `mode: 'read-only'`
   * to `openMemory` to refuse writes there).
   */
  readonly readOnly?: boolean;
  /** Directory stores: create a missing directory (default `false`: `NOT_FOUND`). */
  readonly create?: boolean;
}

/**
 * Check a repository slug and return it; throws `RepomemError` `INVALID_ARGUMENT` naming the
 * problem (`owner/name`, GitHub's character rules).
 */
export function checkRepoSlug(repo: string, what = 'repository'): string {
  const problem = repoSlugProblem(repo);
  if (problem !== undefined) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid ${what} ${JSON.stringify(repo)}: ${problem}`, {
      details: { repo },
    });
  }
  return repo;
}

/**
 * Open the store a spec names (default {@link DEFAULT_STORE_SPEC}): `sqlite:<path>` (created with
 * its directory on first open unless `readOnly`), `dir:<path>`, `git:<repo-dir>[#<branch>]`
 * (object mode, default branch `agent/memory`, created by the first write; the branch name is
 * checked here, before anything is written).
 *
 * Throws `RepomemError`: `INVALID_ARGUMENT` for a bad spec or repo slug, `NOT_FOUND` for a
 * missing directory, repository or (read-only) database, and the stores' own open errors.
 *
 * @example
 * ```ts
 * const store = await openStoreFromSpec(DEFAULT_STORE_SPEC, { repo: 'acme/app' });
 * const memory = openMemory({ store });
 * ```
 */
export async function openStoreFromSpec(
  spec: string | StoreSpec = DEFAULT_STORE_SPEC,
  options: OpenStoreOptions = {},
): Promise<MemoryStore> {
  const parsed = typeof spec === 'string' ? parseStoreSpec(spec) : spec;
  const resolved = resolveStoreSpec(parsed, options.cwd ?? process.cwd());
  switch (resolved.kind) {
    case 'sqlite': {
      const { openSqliteStore } = await import('@repomem/store-sqlite');
      return openSqliteStore({
        path: resolved.path,
        repo: checkRepoSlug(options.repo ?? DEFAULT_STORE_REPO),
        readOnly: options.readOnly ?? false,
      });
    }
    case 'dir':
      return openDirectoryStore({ root: resolved.path, create: options.create ?? false });
    case 'git': {
      const { branchNameProblem, openGitStore } = await import('@repomem/store-git');
      const problem = resolved.branch === undefined ? undefined : branchNameProblem(resolved.branch);
      if (problem !== undefined) {
        throw new RepomemError(
          'INVALID_ARGUMENT',
          `invalid store spec ${JSON.stringify(formatStoreSpec(parsed))}: branch ${JSON.stringify(resolved.branch)} ${problem}`,
          { details: { spec: formatStoreSpec(parsed) } },
        );
      }
      return openGitStore({ dir: resolved.dir, ...(resolved.branch === undefined ? {} : { branch: resolved.branch }) });
    }
  }
}
