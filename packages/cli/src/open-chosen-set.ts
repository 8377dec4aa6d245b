// Why: a command that uses the store and its record backends together (`repomem context`: task
// records, verified memories, the store's vectors) opens its spec once through the registry's
// store set, so a PostgreSQL store costs one connection per command instead of one pool per
// facet; a missing store is reported as openChosenStore reports it.
import type { StoreSet } from '@repomem/core';
import { CLI_MAX_CONNECTIONS, type OpenChosenStoreOptions, openChosen } from './open-chosen-store.js';
import { cliRegistry } from './store-registry.js';
import type { ChosenStore } from './store-selection.js';

/**
 * Open the store of `chosen` with its verified-memory and task-record backends, from one open
 * (at most {@link CLI_MAX_CONNECTIONS} server connection). Close the set, not its facets.
 */
export function openChosenSet(chosen: ChosenStore, options: OpenChosenStoreOptions): Promise<StoreSet> {
  return openChosen(chosen, options, (spec, context) => cliRegistry.openStoreSet(spec, context));
}
