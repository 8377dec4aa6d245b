// Why: a store is named by one short string (`--store`, `$REPOMEM_STORE`, library callers), so
// its grammar lives in one pure module: `sqlite:<path>`, `dir:<path>`, `git:<repo-dir>[#<branch>]`.
// A bad spec is refused with a message naming it before anything is opened or created. (The
// branch name itself is checked by @repomem/store-git when the store opens, before any write;
// importing that package here would load git code for every command.)
import { isAbsolute, resolve } from 'node:path';
import { RepomemError } from '@repomem/core';

/**
 * The store used when none is named: an embedded SQLite database at `.repomem/repomem.db`,
 * relative to the working directory (created, with its directory, on the first write).
 */
export const DEFAULT_STORE_SPEC = 'sqlite:.repomem/repomem.db';

/** A parsed store spec. Paths are as written (relative paths resolve against a working directory later). */
export type StoreSpec =
  /** An embedded SQLite database file (`:memory:` for a private in-memory one). */
  | { readonly kind: 'sqlite'; readonly path: string }
  /** A memory directory (Sepo's layout, `<file>.lock` locks). */
  | { readonly kind: 'dir'; readonly path: string }
  /** A branch of a git repository, written in object mode (no checkout); no branch = `agent/memory`. */
  | { readonly kind: 'git'; readonly dir: string; readonly branch?: string };

/** The kinds of store a spec can name. */
export type StoreKind = StoreSpec['kind'];

const SPEC_GRAMMAR = 'expected sqlite:<path>, dir:<path> or git:<repo-dir>[#<branch>]';

function invalid(spec: string, problem: string): RepomemError {
  return new RepomemError('INVALID_ARGUMENT', `invalid store spec ${JSON.stringify(spec)}: ${problem}`, {
    details: { spec },
  });
}

function checkPath(spec: string, path: string, what: string): string {
  if (path.length === 0) throw invalid(spec, `the ${what} is empty (${SPEC_GRAMMAR})`);
  if (path.includes('\0')) throw invalid(spec, `the ${what} contains a NUL character`);
  return path;
}

/**
 * Parse a store spec. The branch of a `git:` spec is everything after the last `#` (absent:
 * the store's default, `agent/memory`); its validity as a git branch name is checked when the
 * store opens. Throws `RepomemError` `INVALID_ARGUMENT` naming the spec for an unknown scheme,
 * an empty path or an empty branch.
 *
 * @example
 * ```ts
 * parseStoreSpec('git:.#agent/memory'); // { kind: 'git', dir: '.', branch: 'agent/memory' }
 * ```
 */
export function parseStoreSpec(spec: string): StoreSpec {
  if (typeof spec !== 'string' || spec.trim() === '') {
    throw invalid(String(spec), `the spec is empty (${SPEC_GRAMMAR})`);
  }
  const colon = spec.indexOf(':');
  const scheme = colon === -1 ? '' : spec.slice(0, colon);
  const rest = colon === -1 ? '' : spec.slice(colon + 1);
  switch (scheme) {
    case 'sqlite':
      return { kind: 'sqlite', path: checkPath(spec, rest, 'database path') };
    case 'dir':
      return { kind: 'dir', path: checkPath(spec, rest, 'directory') };
    case 'git': {
      const hash = rest.lastIndexOf('#');
      const dir = hash === -1 ? rest : rest.slice(0, hash);
      checkPath(spec, dir, 'repository directory');
      if (hash === -1) return { kind: 'git', dir };
      const branch = rest.slice(hash + 1);
      if (branch.trim() === '') throw invalid(spec, 'the branch after "#" is empty');
      return { kind: 'git', dir, branch };
    }
    default:
      throw invalid(
        spec,
        colon === -1 ? `no scheme (${SPEC_GRAMMAR})` : `unknown scheme "${scheme}:" (${SPEC_GRAMMAR})`,
      );
  }
}

/** The spec as text. Inverse of {@link parseStoreSpec}. */
export function formatStoreSpec(spec: StoreSpec): string {
  switch (spec.kind) {
    case 'sqlite':
      return `sqlite:${spec.path}`;
    case 'dir':
      return `dir:${spec.path}`;
    case 'git':
      return spec.branch === undefined ? `git:${spec.dir}` : `git:${spec.dir}#${spec.branch}`;
  }
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** The same spec with its path made absolute against `cwd` (`sqlite::memory:` is kept). */
export function resolveStoreSpec(spec: StoreSpec, cwd: string): StoreSpec {
  switch (spec.kind) {
    case 'sqlite':
      return spec.path === ':memory:' ? spec : { kind: 'sqlite', path: absolute(spec.path, cwd) };
    case 'dir':
      return { kind: 'dir', path: absolute(spec.path, cwd) };
    case 'git':
      return { ...spec, dir: absolute(spec.dir, cwd) };
  }
}
