// Why: every command picks its store by the same rule, so it is decided once: `--store`, then
// Sepo's `--dir`, then `$REPOMEM_STORE`, then `$MEMORY_DIR`, then the embedded default
// (`sqlite:.repomem/repomem.db` at the root of the clone around the working directory, else in
// the working directory). Flags beat the environment, so a Sepo `--dir` is never
// silently overridden. The chosen spec is resolved once, by the store's own scheme through the
// CLI's registry; directories keep Sepo's exact behaviour and messages.
import {
  DEFAULT_STORE_REPO,
  DEFAULT_STORE_SPEC,
  RepomemError,
  type ResolvedSpec,
  redactSpec,
  repoSlugProblem,
  type StoreScheme,
} from '@repomem/core';
import type { GitStoreTarget } from '@repomem/store-git';
import { CliUsageError } from './errors.js';
import { findGitClone, originRepoOf } from './git-clone.js';
import type { CliIo } from './io.js';
import { chooseMemoryDirectory, type MemoryDirectory } from './memory-dir.js';
import { cliRegistry } from './store-registry.js';

/** The store-related options a command was given. */
export interface StoreSelectionInput {
  /** `--dir` (Sepo). */
  readonly dir?: string | undefined;
  /** `--store`. */
  readonly store?: string | undefined;
}

/** Where a chosen store came from (for messages and tests). */
export type StoreOrigin = '--store' | '--dir' | 'REPOMEM_STORE' | 'MEMORY_DIR' | 'default';

/** What every chosen store carries: the resolved spec, its text form and where it came from. */
interface ChosenBase {
  /** The spec parsed by its scheme, opened as is (never parsed again). */
  readonly resolved: ResolvedSpec<StoreScheme>;
  /** The spec as text for messages: absolute paths, secrets redacted. */
  readonly label: string;
  readonly origin: StoreOrigin;
  /** Working directory and environment the store opens with. */
  readonly context: Pick<CliIo, 'env' | 'cwd'>;
}

/** A git branch store (`git:`): the branch commands work on it. */
export interface GitChoice extends ChosenBase {
  readonly kind: 'git';
  /** Absolute repository directory. */
  readonly dir: string;
  /** The branch the spec names (absent: the store's default, `agent/memory`). */
  readonly branch?: string;
}

/** The store a command will use. */
export type ChosenStore =
  /** A memory directory: Sepo's `--dir` / `$MEMORY_DIR`, or a `dir:` spec. Messages name it as given. */
  | (ChosenBase & { readonly kind: 'dir'; readonly directory: MemoryDirectory })
  | GitChoice
  /**
   * A store holding many repositories, scoped by `--repo`: `sqlite:` (the default), and any
   * other scheme of the registry (`postgres:`, `agentcore:` once their package is installed).
   */
  | (ChosenBase & { readonly kind: 'scoped'; readonly scheme: string });

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

async function resolveSpec(text: string, origin: StoreOrigin, io: Pick<CliIo, 'env' | 'cwd'>) {
  try {
    return await cliRegistry.resolveStoreSpec(text, { cwd: io.cwd, env: io.env });
  } catch (error) {
    if (origin === 'REPOMEM_STORE' && error instanceof RepomemError) {
      throw new RepomemError(error.code, `$REPOMEM_STORE: ${error.message}`, {
        cause: error,
        details: { spec: redactSpec(text) },
      });
    }
    throw error;
  }
}

/** A memory directory opened through the `dir:` scheme, named in messages as the user gave it. */
async function directoryChoice(
  directory: MemoryDirectory,
  origin: StoreOrigin,
  io: Pick<CliIo, 'env' | 'cwd'>,
): Promise<ChosenStore> {
  // `dir:.` against the absolute directory: no path text is re-parsed, whatever it contains.
  const resolved = await cliRegistry.resolveStoreSpec('dir:.', { cwd: directory.absolute, env: io.env });
  return { kind: 'dir', directory, resolved, label: resolved.label, origin, context: contextOf(io) };
}

function contextOf(io: Pick<CliIo, 'env' | 'cwd'>): Pick<CliIo, 'env' | 'cwd'> {
  return { cwd: io.cwd, env: io.env };
}

async function fromSpec(text: string, origin: StoreOrigin, io: Pick<CliIo, 'env' | 'cwd'>): Promise<ChosenStore> {
  const resolved = await resolveSpec(text, origin, io);
  const { scheme } = resolved.scheme;
  if (scheme === 'dir') {
    // Sepo's messages name the directory as written after `dir:`.
    const written = text.slice(text.indexOf(':') + 1);
    const directory = chooseMemoryDirectory(written, { env: {}, cwd: io.cwd });
    return { kind: 'dir', directory, resolved, label: resolved.label, origin, context: contextOf(io) };
  }
  if (scheme === 'git') {
    const target = resolved.target as GitStoreTarget;
    return {
      kind: 'git',
      resolved,
      label: resolved.label,
      origin,
      context: contextOf(io),
      dir: target.dir,
      ...(target.branch === undefined ? {} : { branch: target.branch }),
    };
  }
  return { kind: 'scoped', scheme, resolved, label: resolved.label, origin, context: contextOf(io) };
}

/**
 * Choose the store from the options and `io.env` (see the module comment for the order) and
 * resolve its spec. Throws {@link CliUsageError} when both `--store` and `--dir` are given,
 * `INVALID_ARGUMENT` naming the spec when a spec is malformed or its scheme unknown (the known
 * schemes listed), and `PACKAGE_MISSING` when the scheme's package is not installed.
 */
export async function chooseStore(input: StoreSelectionInput, io: Pick<CliIo, 'env' | 'cwd'>): Promise<ChosenStore> {
  const store = nonEmpty(input.store);
  const dir = nonEmpty(input.dir);
  if (store !== undefined && dir !== undefined) {
    throw new CliUsageError('--store and --dir both name a store; give only one');
  }
  if (store !== undefined) return fromSpec(store, '--store', io);
  if (dir !== undefined) return directoryChoice(chooseMemoryDirectory(dir, io), '--dir', io);
  const fromEnv = nonEmpty(io.env.REPOMEM_STORE);
  if (fromEnv !== undefined) return fromSpec(fromEnv, 'REPOMEM_STORE', io);
  if (nonEmpty(io.env.MEMORY_DIR) !== undefined) {
    return directoryChoice(chooseMemoryDirectory(undefined, io), 'MEMORY_DIR', io);
  }
  // The default store is the clone's, wherever in it the command runs (no second `.repomem/`
  // in a subdirectory); outside a clone, the working directory's.
  const root = findGitClone(io.cwd)?.root;
  return fromSpec(DEFAULT_STORE_SPEC, 'default', root === undefined ? io : { env: io.env, cwd: root });
}

/** Check a repository slug given as `what`; throws `INVALID_ARGUMENT` naming it and the problem. */
function checkRepo(repo: string, what: string): string {
  const problem = repoSlugProblem(repo);
  if (problem !== undefined) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid ${what} ${JSON.stringify(repo)}: ${problem}`, {
      details: { repo },
    });
  }
  return repo;
}

/** The `stderr` streams already told which repository the origin remote named (once per run). */
const toldOrigin = new WeakSet<object>();

/** The remote URL without a user name and password (`https://x:token@host/...` -> `https://host/...`). */
function withoutCredentials(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^@/]*@/, '$1');
}

/**
 * The repository slug a command works on: `--repo`, then `$GITHUB_REPOSITORY`, then the
 * `owner/name` of the `origin` remote of the clone around `io.cwd` (GitHub or GitHub Enterprise,
 * SSH or HTTPS; said once on stderr), then `local/default`. Validated (`owner/name`); a bad
 * value throws `INVALID_ARGUMENT` naming its source.
 */
export function chooseRepo(repoOption: string | undefined, io: Pick<CliIo, 'env' | 'cwd' | 'stderr'>): string {
  const option = nonEmpty(repoOption);
  if (option !== undefined) return checkRepo(option, '--repo');
  const fromEnv = nonEmpty(io.env.GITHUB_REPOSITORY);
  if (fromEnv !== undefined) return checkRepo(fromEnv, '$GITHUB_REPOSITORY');
  return repoOfOrigin(io) ?? DEFAULT_STORE_REPO;
}

/**
 * The `owner/name` of the `origin` remote of the clone around `io.cwd` (GitHub or GitHub
 * Enterprise, SSH or HTTPS), said once on stderr with the remote's URL (credentials removed);
 * `undefined` outside a clone or when origin names no repository. For commands whose repository
 * falls back to nothing else (`sync github`, `gate scan`) once `--repo` and the environment are empty.
 */
export function repoOfOrigin(io: Pick<CliIo, 'cwd' | 'stderr'>): string | undefined {
  const origin = originRepoOf(io.cwd);
  if (origin === undefined) return undefined;
  if (!toldOrigin.has(io.stderr)) {
    toldOrigin.add(io.stderr);
    io.stderr.write(
      `repomem: repository ${origin.slug} (from the origin remote ${withoutCredentials(origin.url)}; --repo or $GITHUB_REPOSITORY names another)\n`,
    );
  }
  return origin.slug;
}

/**
 * The repository scope for the document store of `chosen`: {@link chooseRepo} for stores holding
 * many repositories. Directory and git stores hold one tree and ignore it, so there only an
 * explicit `--repo` is validated (a Sepo run is never broken by an unrelated `$GITHUB_REPOSITORY`).
 */
export function documentRepoFor(
  chosen: ChosenStore,
  repoOption: string | undefined,
  io: Pick<CliIo, 'env' | 'cwd' | 'stderr'>,
): string {
  if (chosen.kind === 'scoped') return chooseRepo(repoOption, io);
  const option = nonEmpty(repoOption);
  return option === undefined ? DEFAULT_STORE_REPO : checkRepo(option, '--repo');
}
