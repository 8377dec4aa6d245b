// Why: a task-record row changed by hand (a record that no longer passes core's schema, or
// another repository's record under this repository's key) must never hide the other rows: it is
// left out of get, list and search, reported once, and writing its id again replaces it. The rows
// are damaged with raw SQL as a superuser, the way it would happen.
import { getEpisode, listEpisodes, writeEpisode } from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresTaskRecordBackend } from '../src/index.js';
import {
  closeCleaners,
  freshDatabase,
  freshSchema,
  noServer,
  skipReason,
  superuserFields,
  withSuperuser,
} from './support.js';

const repo = 'acme/app';

describe.skipIf(noServer)(`damaged task-record rows${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let database = '';
  beforeAll(async () => {
    database = await freshDatabase('damaged-tasks');
  });
  afterAll(() => closeCleaners());

  it('are skipped and reported once; the other rows are served; writing the id again replaces them', async () => {
    const schema = freshSchema();
    const backend = await openPostgresTaskRecordBackend({ ...superuserFields(database), schema });
    try {
      for (const id of ['t-1', 't-2', 't-3']) {
        await writeEpisode({
          backend,
          repo,
          episode: { task_id: id, status: 'completed', description: `billing ${id}` },
        });
      }
      await withSuperuser(database, async (client) => {
        await client.query(
          `UPDATE "${schema}".task_records SET record = '{"kind": "episode", "truncated": true}' WHERE id = 't-2'`,
        );
        await client.query(
          `UPDATE "${schema}".task_records SET record = json_build_object('kind', 'episode', 'repo', 'acme/other', 'id', 't-3',
             'revision', 1, 'updated_at', '2026-01-01T00:00:00.000Z', 'text', 'x', 'data', '{}'::json) WHERE id = 't-3'`,
        );
      });
      expect((await listEpisodes(backend, repo)).map((episode) => episode.id)).toEqual(['t-1']);
      expect(await backend.search({ repo, kind: 'episode', text: 'billing' })).toHaveLength(1);
      expect(await getEpisode(backend, repo, 't-2')).toBeUndefined();
      const reported = backend.drainSkippedRecords?.() ?? [];
      expect(reported.map((entry) => entry.location).sort()).toEqual([
        `"${schema}"."task_records" (acme/app, episode, t-2)`,
        `"${schema}"."task_records" (acme/app, episode, t-3)`,
      ]);
      expect(reported.find((entry) => entry.location.includes('t-3'))?.problem).toContain('acme/other');
      await listEpisodes(backend, repo);
      expect(backend.drainSkippedRecords?.()).toEqual([]);
      const rewritten = await writeEpisode({ backend, repo, episode: { task_id: 't-2', status: 'failed' } });
      expect(rewritten.kind).toBe('written');
      expect((await getEpisode(backend, repo, 't-2'))?.data.status).toBe('failed');
    } finally {
      await backend.close();
    }
  });
});
