// Why: every command opens its chosen store the same way, through the CLI's registry with the
// spec resolved when the store was chosen, and a missing store becomes an exit-code-2 error that
// names it the way the user gave it. Commands that only read or write documents (search, the
// verified-memory backends, the git branch commands) use this without the memory facade, which
// keeps a cold `repomem search` small.
import { type MemoryStore, type OpenStoreOptions, RepomemError } from '@repomem/core';
import { CliDataError } from './errors.js';
import { cliRegistry } from './store-registry.js';
import type { ChosenStore } from './store-selection.js';

/** Options of {@link openChosenStore}. */
export interface OpenChosenStoreOptions {
  /** Repository slug a store holding many repositories is scoped to. */
  readonly repo: string;
  /** Open without writing anything (a missing database is not created). */
  readonly readOnly: boolean;
  /** Directories only: create a missing directory (init). Default `false`. */
  readonly create?: boolean;
}

/**
 * Server connections a command may hold on a pooled store (PostgreSQL) whose spec sets no
 * `pool_max`: a command is one short client, so its concurrent reads share one connection.
 */
export const CLI_MAX_CONNECTIONS = 1;

/** The message of a missing store, naming it the way the user gave it. */
export function missingStoreMessage(chosen: ChosenStore, code: string, error: RepomemError): string {
  if (chosen.kind === 'dir') {
    // Sepo's exact wording, with the absolute path as Sepo prints it: scripts match on it.
    return code === 'NOT_FOUND'
      ? `Memory directory not found: ${chosen.directory.absolute}`
      : `Memory path is not a directory: ${chosen.directory.absolute}`;
  }
  const hint =
    chosen.kind === 'scoped' && chosen.scheme === 'sqlite'
      ? ' (the first write creates it: repomem init, or repomem update)'
      : '';
  return `store not found: ${chosen.label}${hint}\n${error.message}`;
}

/**
 * Run `open` with the registry context of `chosen` (its directory, environment, the repository and
 * at most {@link CLI_MAX_CONNECTIONS} server connection); a missing directory, database (read-only
 * open) or repository becomes a {@link CliDataError} (exit 2) naming the store.
 */
export async function openChosen<T>(
  chosen: ChosenStore,
  options: OpenChosenStoreOptions,
  open: (spec: ChosenStore['resolved'], context: OpenStoreOptions) => Promise<T>,
): Promise<T> {
  try {
    return await open(chosen.resolved, {
      cwd: chosen.context.cwd,
      env: chosen.context.env,
      repo: options.repo,
      readOnly: options.readOnly,
      create: options.create ?? false,
      maxConnections: CLI_MAX_CONNECTIONS,
    });
  } catch (error) {
    if (error instanceof RepomemError && (error.code === 'NOT_FOUND' || error.code === 'NOT_A_DIRECTORY')) {
      throw new CliDataError(error.code, missingStoreMessage(chosen, error.code, error));
    }
    throw error;
  }
}

/**
 * Open the store of `chosen`. A missing directory, database (read-only open) or repository
 * becomes a {@link CliDataError} (exit 2) naming the store: Sepo's `Memory directory not found:
 * <absolute dir>` (or `Memory path is not a directory: <absolute dir>`) for directories,
 * `store not found: <spec>` otherwise.
 */
export function openChosenStore(chosen: ChosenStore, options: OpenChosenStoreOptions): Promise<MemoryStore> {
  return openChosen(chosen, options, (spec, context) => cliRegistry.openStore(spec, context));
}
