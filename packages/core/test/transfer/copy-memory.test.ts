// Why: copyMemory's rules, on core's own stores (the CLI's tests round-trip between real stores):
// documents byte for byte except repomem's own `.repomem/` ones, records with their ids (a task
// record restarting its revision at 1), unchanged items counted, a differing item left alone
// unless `overwrite`, a dry run writing nothing, and a failing copy naming what changed.
import { describe, expect, it } from 'vitest';
import { type CopyEndpoint, copyMemory, createInMemoryStore, type MemoryStore, writeEpisode } from '../../src/index.js';
import { createDocumentTaskRecordBackend } from '../../src/tasks/document-backend.js';
import { conformanceRecord } from '../../src/testing/index.js';
import { createDocumentRecordBackend } from '../../src/verified/index.js';

const REPO = 'acme/app';
const encoder = new TextEncoder();

function endpoint(label: string, store: MemoryStore = createInMemoryStore()): CopyEndpoint {
  return { label, store, verified: createDocumentRecordBackend(store), tasks: createDocumentTaskRecordBackend(store) };
}

async function put(store: MemoryStore, path: string, content: string | Uint8Array): Promise<void> {
  const bytes = typeof content === 'string' ? encoder.encode(content) : content;
  const result = await store.write([{ kind: 'put', path, content: bytes }]);
  expect(result.status).toBe('committed');
}

async function seeded(): Promise<CopyEndpoint> {
  const from = endpoint('from');
  await put(from.store, 'MEMORY.md', '# Memory\n');
  await put(from.store, 'bin/raw.dat', new Uint8Array([0xff, 0x00, 0xfe]));
  const record = conformanceRecord({ repo: REPO });
  expect((await from.verified.apply([{ record, expectedRevision: null }], [])).ok).toBe(true);
  await writeEpisode({ backend: from.tasks, repo: REPO, episode: { task_id: 't-1', status: 'completed' } });
  await writeEpisode({
    backend: from.tasks,
    repo: REPO,
    episode: { task_id: 't-1', status: 'completed', approach: 'again' },
  });
  return from;
}

describe('copyMemory', () => {
  it('copies documents byte for byte and records with their ids; repomem documents only as records', async () => {
    const from = await seeded();
    const to = endpoint('to');
    const report = await copyMemory({ from, to, repo: REPO });
    expect(report).toMatchObject({
      dryRun: false,
      from: 'from',
      to: 'to',
      documents: { copied: 2, unchanged: 0, conflict: 0, overwritten: 0, bytes: 12 },
      verified: { copied: 1 },
      tasks: { copied: 1 },
      conflicts: [],
    });
    expect([...((await to.store.get('bin/raw.dat'))?.content ?? [])]).toEqual([0xff, 0x00, 0xfe]);
    const [source] = await from.verified.recent({ repo: REPO });
    expect(await to.verified.get(REPO, source?.id ?? '')).toEqual(source);
    const episode = await to.tasks.get(REPO, 'episode', 't-1');
    expect(episode).toMatchObject({ id: 't-1', revision: 1, data: { approach: 'again' } });
    expect((await from.tasks.get(REPO, 'episode', 't-1'))?.revision).toBe(2);

    const again = await copyMemory({ from, to, repo: REPO });
    expect(again).toMatchObject({
      documents: { copied: 0, unchanged: 2 },
      verified: { unchanged: 1 },
      tasks: { unchanged: 1 },
    });
  });

  it('leaves differing items alone and lists them, unless overwrite', async () => {
    const from = await seeded();
    const to = endpoint('to');
    await put(to.store, 'MEMORY.md', '# Theirs\n');
    await writeEpisode({ backend: to.tasks, repo: REPO, episode: { task_id: 't-1', status: 'failed' } });
    const report = await copyMemory({ from, to, repo: REPO });
    expect(report.conflicts).toEqual([
      { part: 'document', name: 'MEMORY.md' },
      { part: 'episode', name: 't-1' },
    ]);
    expect(new TextDecoder().decode((await to.store.get('MEMORY.md'))?.content)).toBe('# Theirs\n');
    const forced = await copyMemory({ from, to, repo: REPO, overwrite: true });
    expect(forced).toMatchObject({ documents: { overwritten: 1 }, tasks: { overwritten: 1 }, conflicts: [] });
    expect(await to.tasks.get(REPO, 'episode', 't-1')).toMatchObject({ revision: 2, data: { status: 'completed' } });
  });

  it('writes nothing in a dry run, and reports progress', async () => {
    const from = await seeded();
    const to = endpoint('to');
    const before = await to.store.revision();
    const phases = new Set<string>();
    const report = await copyMemory({ from, to, repo: REPO, dryRun: true, onProgress: (p) => phases.add(p.phase) });
    expect(report).toMatchObject({
      dryRun: true,
      documents: { copied: 2 },
      verified: { copied: 1 },
      tasks: { copied: 1 },
    });
    expect(await to.store.revision()).toBe(before);
    expect([...phases]).toEqual(['documents', 'verified', 'tasks']);
  });

  it('needs from and to', async () => {
    await expect(copyMemory({} as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
