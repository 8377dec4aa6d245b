// Why: recall refreshes every memory it verified in one write; when another writer changed one of
// them between the listing and that write, the batch conflicts and each memory is refreshed on its
// own, so nobody's change is lost and the others are still refreshed.
import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/store/index.js';
import {
  createDocumentRecordBackend,
  openVerifiedMemory,
  type VerifiedMemoryBackend,
} from '../../src/verified/index.js';
import { createMapCitationReader, numberedLines } from '../citations/support.js';

const repo = 'acme/app';

describe('recall refreshes in one write', () => {
  it('refreshes all verified memories in one apply', async () => {
    const backend = createDocumentRecordBackend(createInMemoryStore());
    let applies = 0;
    const counting: VerifiedMemoryBackend = {
      ...backend,
      name: backend.name,
      apply: (writes, events) => {
        applies += 1;
        return backend.apply(writes, events);
      },
    };
    const reader = createMapCitationReader({ 'src/a.ts': numberedLines(5) });
    const service = openVerifiedMemory({ backend: counting, citations: reader });
    for (const n of [1, 2, 3]) {
      await service.store({
        repo,
        subject: `fact ${n}`,
        fact: `fact ${n}`,
        citations: [{ path: 'src/a.ts', line_start: n, line_end: n }],
      });
    }
    applies = 0;
    const recalled = await service.recall(repo);
    expect(recalled.memories.map((memory) => memory.verification_count)).toEqual([1, 1, 1]);
    expect(applies).toBe(1);
  });

  it('falls back to one write per memory when another writer changed one meanwhile', async () => {
    const backend = createDocumentRecordBackend(createInMemoryStore());
    const reader = createMapCitationReader({ 'src/a.ts': numberedLines(5) });
    const other = openVerifiedMemory({ backend, citations: reader });
    let interfere = false;
    const racing: VerifiedMemoryBackend = {
      ...backend,
      name: backend.name,
      recent: async (query) => {
        const listed = await backend.recent(query);
        if (interfere && listed[0] !== undefined) {
          interfere = false;
          // Another agent uses the first memory between this recall's listing and its write.
          await other.logApplied(repo, listed[0].id, { task: 'elsewhere' });
        }
        return listed;
      },
    };
    const service = openVerifiedMemory({ backend: racing, citations: reader });
    for (const n of [1, 2]) {
      await service.store({
        repo,
        subject: `fact ${n}`,
        fact: `fact ${n}`,
        citations: [{ path: 'src/a.ts', line_start: n, line_end: n }],
      });
    }
    interfere = true;
    const recalled = await service.recall(repo);
    expect(recalled.memories).toHaveLength(2);
    for (const memory of recalled.memories) expect(memory.verification_count).toBe(1);
    const events = await service.events(repo);
    expect(events.filter((event) => event.type === 'applied')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'refreshed')).toHaveLength(2);
  });
});
