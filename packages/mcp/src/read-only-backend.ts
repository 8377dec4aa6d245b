// Why: in read-only mode no memory may change, yet reading memories records `retrieved`
// telemetry. This wrapper keeps reads, drops telemetry appends and refuses record writes with
// READ_ONLY, so the verified-memory service stays usable for reading without touching the store.
import { RepomemError, type VerifiedMemoryBackend } from '@repomem/core';

/** `backend` with writes refused (`READ_ONLY`) and telemetry appends dropped. */
export function readOnlyBackend(backend: VerifiedMemoryBackend): VerifiedMemoryBackend {
  return {
    name: backend.name,
    apply: async () => {
      throw new RepomemError('READ_ONLY', 'memory is read-only on this server: no memory can change');
    },
    get: (repo, id) => backend.get(repo, id),
    recent: (query) => backend.recent(query),
    byPath: (query) => backend.byPath(query),
    bySubject: (query) => backend.bySubject(query),
    search: (query) => backend.search(query),
    appendEvents: async () => {},
    events: (query) => backend.events(query),
    stats: (query) => backend.stats(query),
    close: () => backend.close(),
  };
}
