// Why: every command picks its store by the same rule, so it is decided once: `--store`, then
// Sepo's `--dir`, then `$REPOMEM_STORE`, then `$MEMORY_DIR`, then the embedded default
// (`sqlite:.repomem/repomem.db`). Flags beat the environment, so a Sepo `--dir` is never
// silently overridden. Directories keep Sepo's exact behaviour and messages.
import { RepomemError } from '@repomem/core';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { chooseMemoryDirectory, type MemoryDirectory } from './memory-dir.js';
import { checkRepoSlug, DEFAULT_STORE_REPO } from './open-store.js';
import { DEFAULT_STORE_SPEC, formatStoreSpec, parseStoreSpec, resolveStoreSpec, type StoreSpec } from './store-spec.js';

/** The store-related options a command was given. */
export interface StoreSelectionInput {
  /** `--dir` (Sepo). */
  readonly dir?: string | undefined;
  /** `--store`. */
  readonly store?: string | undefined;
}

/** Where a chosen store came from (for messages and tests). */
export type StoreOrigin = '--store' | '--dir' | 'REPOMEM_STORE' | 'MEMORY_DIR' | 'default';

/** The store a command will use. */
export type ChosenStore =
  /** A memory directory: Sepo's `--dir` / `$MEMORY_DIR`, or a `dir:` spec. */
  | { readonly kind: 'dir'; readonly directory: MemoryDirectory; readonly origin: StoreOrigin }
  /** A SQLite store; `spec` has an absolute path, `label` is its text form. */
  | {
      readonly kind: 'sqlite';
      readonly spec: Extract<StoreSpec, { kind: 'sqlite' }>;
      readonly label: string;
      readonly origin: StoreOrigin;
    }
  /** A git store; `spec` has an absolute directory, `label` is its text form. */
  | {
      readonly kind: 'git';
      readonly spec: Extract<StoreSpec, { kind: 'git' }>;
      readonly label: string;
      readonly origin: StoreOrigin;
    };

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function fromSpec(text: string, origin: StoreOrigin, cwd: string): ChosenStore {
  let parsed: StoreSpec;
  try {
    parsed = parseStoreSpec(text);
  } catch (error) {
    if (origin === 'REPOMEM_STORE' && error instanceof RepomemError) {
      throw new RepomemError(error.code, `$REPOMEM_STORE: ${error.message}`, { details: { spec: text } });
    }
    throw error;
  }
  if (parsed.kind === 'dir') {
    return { kind: 'dir', directory: chooseMemoryDirectory(parsed.path, { env: {}, cwd }), origin };
  }
  const spec = resolveStoreSpec(parsed, cwd);
  if (spec.kind === 'sqlite') return { kind: 'sqlite', spec, label: formatStoreSpec(spec), origin };
  if (spec.kind === 'git') return { kind: 'git', spec, label: formatStoreSpec(spec), origin };
  throw new RepomemError('INVALID_ARGUMENT', `unexpected store spec ${formatStoreSpec(spec)}`);
}

/**
 * Choose the store from the options and `io.env` (see the module comment for the order).
 * Throws {@link CliUsageError} when both `--store` and `--dir` are given, and `INVALID_ARGUMENT`
 * naming the spec when a spec is malformed.
 */
export function chooseStore(input: StoreSelectionInput, io: Pick<CliIo, 'env' | 'cwd'>): ChosenStore {
  const store = nonEmpty(input.store);
  const dir = nonEmpty(input.dir);
  if (store !== undefined && dir !== undefined) {
    throw new CliUsageError('--store and --dir both name a store; give only one');
  }
  if (store !== undefined) return fromSpec(store, '--store', io.cwd);
  if (dir !== undefined) return { kind: 'dir', directory: chooseMemoryDirectory(dir, io), origin: '--dir' };
  const fromEnv = nonEmpty(io.env.REPOMEM_STORE);
  if (fromEnv !== undefined) return fromSpec(fromEnv, 'REPOMEM_STORE', io.cwd);
  if (nonEmpty(io.env.MEMORY_DIR) !== undefined) {
    return { kind: 'dir', directory: chooseMemoryDirectory(undefined, io), origin: 'MEMORY_DIR' };
  }
  return fromSpec(DEFAULT_STORE_SPEC, 'default', io.cwd);
}

/**
 * The repository slug a command works on: `--repo`, then `$GITHUB_REPOSITORY`, then
 * `local/default`. Validated (`owner/name`); a bad value throws `INVALID_ARGUMENT` naming its source.
 */
export function chooseRepo(repoOption: string | undefined, env: CliIo['env']): string {
  const option = nonEmpty(repoOption);
  if (option !== undefined) return checkRepoSlug(option, '--repo');
  const fromEnv = nonEmpty(env.GITHUB_REPOSITORY);
  if (fromEnv !== undefined) return checkRepoSlug(fromEnv, '$GITHUB_REPOSITORY');
  return DEFAULT_STORE_REPO;
}

/**
 * The repository scope for the document store of `chosen`: {@link chooseRepo} for SQLite stores.
 * Directory and git stores hold one tree and ignore it, so there only an explicit `--repo` is
 * validated (a Sepo run is never broken by an unrelated `$GITHUB_REPOSITORY`).
 */
export function documentRepoFor(chosen: ChosenStore, repoOption: string | undefined, env: CliIo['env']): string {
  if (chosen.kind === 'sqlite') return chooseRepo(repoOption, env);
  const option = nonEmpty(repoOption);
  return option === undefined ? DEFAULT_STORE_REPO : checkRepoSlug(option, '--repo');
}
