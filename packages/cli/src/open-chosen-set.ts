// Why: a command that uses the store and its record backends together (`repomem context`: task
// records, verified memories, the store's vectors) opens its spec once through the registry's
// store set, so a PostgreSQL store costs one connection per command instead of one pool per
// facet; a missing store is reported as openChosenStore reports it.
import { RepomemError, type StoreSet } from '@repomem/core';
import { CliDataError } from './errors.js';
import { CLI_MAX_CONNECTIONS, missingStoreMessage, type OpenChosenStoreOptions } from './open-chosen-store.js';
import { cliRegistry } from './store-registry.js';
import type { ChosenStore } from './store-selection.js';

/**
 * Open the store of `chosen` with its verified-memory and task-record backends, from one open
 * (at most {@link CLI_MAX_CONNECTIONS} server connection). Close the set, not its facets.
 */
export async function openChosenSet(chosen: ChosenStore, options: OpenChosenStoreOptions): Promise<StoreSet> {
  try {
    return await cliRegistry.openStoreSet(chosen.resolved, {
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
