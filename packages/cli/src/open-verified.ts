// Why: verified memories live in the same store the other commands use: natively in the SQLite
// file (records and telemetry tables), or as JSON documents under `.repomem/verified/` in any
// other store (a directory, the git branch). One function opens the right backend for a chosen store.
import { createDocumentRecordBackend, type VerifiedMemoryBackend } from '@repomem/core';
import { openChosenStore } from './open-chosen-store.js';
import type { ChosenStore } from './store-selection.js';

/** Open the verified-memory backend of `chosen`; `close()` also closes the underlying store. */
export async function openRecordBackend(chosen: ChosenStore, repo: string): Promise<VerifiedMemoryBackend> {
  if (chosen.kind === 'scoped' && chosen.scheme === 'sqlite') {
    const { openSqliteRecordBackend } = await import('@repomem/store-sqlite');
    return openSqliteRecordBackend({ path: (chosen.resolved.target as { readonly path: string }).path });
  }
  const store = await openChosenStore(chosen, { repo, readOnly: false });
  const backend = createDocumentRecordBackend(store);
  return {
    name: backend.name,
    apply: (writes, events) => backend.apply(writes, events),
    get: (r, id) => backend.get(r, id),
    recent: (query) => backend.recent(query),
    byPath: (query) => backend.byPath(query),
    bySubject: (query) => backend.bySubject(query),
    search: (query) => backend.search(query),
    appendEvents: (events) => backend.appendEvents(events),
    events: (query) => backend.events(query),
    stats: (query) => backend.stats(query),
    close: async () => {
      try {
        await backend.close();
      } finally {
        await store.close();
      }
    },
  };
}
