// Why: a team moves its memory onto PostgreSQL with `repomem import` / `export` (core's
// copyMemory), so the copy must round-trip through the real server: documents byte for byte (a
// non-UTF-8 one included) and verified memories and task records, with their ids, landing in the
// native tables. From core's in-memory store to PostgreSQL and back to a fresh in-memory store.
import {
  type CopyEndpoint,
  copyMemory,
  createDocumentRecordBackend,
  createDocumentTaskRecordBackend,
  createInMemoryStore,
  type MemoryStore,
  TASK_RECORD_KINDS,
  writeEpisode,
} from '@repomem/core';
import { conformanceRecord } from '@repomem/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, freshSchema, noServer, server, skipReason } from './support.js';

const REPO = 'acme/app';

function endpoint(label: string, store: MemoryStore = createInMemoryStore()): CopyEndpoint {
  return { label, store, verified: createDocumentRecordBackend(store), tasks: createDocumentTaskRecordBackend(store) };
}

async function contents(side: CopyEndpoint) {
  const documents: Record<string, number[]> = {};
  for (const entry of await side.store.list()) {
    if (!entry.path.startsWith('.repomem/'))
      documents[entry.path] = [...((await side.store.get(entry.path))?.content ?? [])];
  }
  const verified = (await side.verified.recent({ repo: REPO })).map(({ revision: _r, ...rest }) => rest);
  const tasks = [];
  for (const kind of TASK_RECORD_KINDS) {
    for (const { revision: _r, ...rest } of await side.tasks.list({ repo: REPO, kind })) tasks.push(rest);
  }
  return { documents, verified, tasks };
}

describe.skipIf(noServer)(`copyMemory through PostgreSQL${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let spec = '';
  beforeAll(async () => {
    if (server === undefined) throw new Error(skipReason);
    const database = await freshDatabase('copy');
    spec = `postgres://${server.user}:${encodeURIComponent(server.password)}@${server.host}:${server.port}/${database}?schema=${freshSchema()}`;
  });

  it('round-trips memory -> postgres -> memory byte for byte, records with their ids', async () => {
    const from = endpoint('from');
    const encoder = new TextEncoder();
    await from.store.write([
      {
        kind: 'put',
        path: 'MEMORY.md',
        content: encoder.encode('# Memory\n\n## Conventions\n\n- Release from main\n'),
      },
      { kind: 'put', path: 'notes/raw.bin', content: new Uint8Array([0xff, 0x00, 0xfe, 0x0a]) },
    ]);
    expect(
      (await from.verified.apply([{ record: conformanceRecord({ repo: REPO }), expectedRevision: null }], [])).ok,
    ).toBe(true);
    await writeEpisode({ backend: from.tasks, repo: REPO, episode: { task_id: 'task-1', status: 'completed' } });
    const original = await contents(from);

    const exported = await copyMemory({ from, to: spec, repo: REPO });
    expect(exported).toMatchObject({
      documents: { copied: 2 },
      verified: { copied: 1 },
      tasks: { copied: 1 },
      conflicts: [],
    });
    const back = endpoint('back');
    const imported = await copyMemory({ from: spec, to: back, repo: REPO });
    expect(imported).toMatchObject({ documents: { copied: 2 }, verified: { copied: 1 }, tasks: { copied: 1 } });
    expect(await contents(back)).toEqual(original);

    const again = await copyMemory({ from, to: spec, repo: REPO, dryRun: true });
    expect(again).toMatchObject({ documents: { unchanged: 2 }, verified: { unchanged: 1 }, tasks: { unchanged: 1 } });
  });
});
