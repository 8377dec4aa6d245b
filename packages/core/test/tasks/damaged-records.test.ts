// Why: a record whose envelope is valid but whose data is not a valid episode, preference or
// knowledge item (written by an older or foreign tool, or edited by hand) must never hide the
// others or block a rewrite: lists skip it and say so, writers replace it.
import { describe, expect, it } from 'vitest';
import {
  createDocumentTaskRecordBackend,
  createInMemoryStore,
  getEpisode,
  listEpisodes,
  listPreferences,
  recordLearnings,
  setPreference,
  type TaskRecordKind,
  writeEpisode,
} from '../../src/index.js';

const repo = 'acme/app';
const now = () => new Date('2026-03-01T00:00:00.000Z');

function damaged(kind: TaskRecordKind, id: string) {
  return {
    record: { kind, repo, id, revision: 1, updated_at: now().toISOString(), text: 'damaged', data: { nonsense: true } },
    expectedRevision: null,
  };
}

describe('a record whose data does not parse', () => {
  it('is skipped by listEpisodes and listPreferences, reported, and replaced by the next write', async () => {
    const backend = createDocumentTaskRecordBackend(createInMemoryStore());
    await writeEpisode({ backend, repo, now, episode: { task_id: 'good', status: 'completed' } });
    await setPreference({ backend, repo, user: 'bob', topic: 'tests', preference: 'Run them.', now });
    expect(await backend.apply([damaged('episode', 'bad'), damaged('preference', 'users/bob/docs')])).toEqual({
      ok: true,
    });
    const skipped: string[] = [];
    const onSkipped = ({ id }: { id: string }) => skipped.push(id);
    expect((await listEpisodes(backend, repo, { onSkipped })).map((episode) => episode.id)).toEqual(['good']);
    expect((await listPreferences(backend, repo, 'bob', { onSkipped })).map((p) => p.data.topic)).toEqual(['tests']);
    expect(skipped).toEqual(['bad', 'users/bob/docs']);

    const rewritten = await writeEpisode({ backend, repo, now, episode: { task_id: 'bad', status: 'failed' } });
    expect(rewritten.kind).toBe('written');
    expect((await getEpisode(backend, repo, 'bad'))?.data.status).toBe('failed');
    await setPreference({ backend, repo, user: 'bob', topic: 'docs', preference: 'Keep the README true.', now });
    expect((await listPreferences(backend, repo, 'bob')).map((p) => p.data.topic).sort()).toEqual(['docs', 'tests']);
  });

  it('a damaged knowledge record is replaced when the learning is recorded again', async () => {
    const backend = createDocumentTaskRecordBackend(createInMemoryStore());
    const learnings = '**CI:** Integration tests need Docker.';
    const first = await recordLearnings({ backend, repo, now, learnings });
    if (first.kind !== 'recorded') throw new Error('expected a recorded learning');
    const id = first.outcomes[0]?.id as string;
    const stored = await backend.get(repo, 'knowledge', id);
    expect(
      await backend.apply([
        {
          record: { ...(stored as NonNullable<typeof stored>), revision: 2, data: { nonsense: true } },
          expectedRevision: 1,
        },
      ]),
    ).toEqual({ ok: true });
    const again = await recordLearnings({ backend, repo, now, learnings });
    expect(again.kind === 'recorded' ? again.outcomes[0]?.kind : again.kind).toBe('stored');
  });
});
