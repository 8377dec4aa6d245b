// Why: a PostgreSQL schema outlives the package version that created it. A schema at version 1
// (made here by the version 1 migration itself, with a memory row in it, exactly as the previous
// release left it) must gain the learned-on columns of issue 26 when opened: the old memory reads
// back unchanged (no `learned_on`: the default branch's scope) and new memories keep the fields.
import { randomBytes } from 'node:crypto';
import { conformanceRecord } from '@repomem/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPostgresRecordBackend, POSTGRES_SCHEMA_VERSION } from '../src/index.js';
import { MIGRATIONS } from '../src/migrations.js';
import { freshDatabase, freshSchema, noServer, skipReason, superuserFields, withSuperuser } from './support.js';

const OLD_ID = '00000000-0000-4000-8000-000000000001';
const time = '2026-05-01T10:00:00.000Z';

describe.skipIf(noServer)(`postgres learned-on migration${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let database = '';
  beforeAll(async () => {
    database = await freshDatabase('learned_on');
  });

  it('migrates a version 1 schema in place and round-trips the new fields', async () => {
    const schema = freshSchema();
    await withSuperuser(database, async (client) => {
      await client.query(`CREATE SCHEMA "${schema}"`);
      await client.query((MIGRATIONS[0] as (s: string) => string)(`"${schema}"`));
      await client.query(
        `INSERT INTO "${schema}".repomem_meta (key, value) VALUES ('application', 'repomem'), ('database_id', $1), ('schema_version', '1')`,
        [randomBytes(8).toString('hex')],
      );
      await client.query(
        `INSERT INTO "${schema}".agent_memory (id, repo, subject, subject_key, fact, citations, created_at, refreshed_at, expires_at, status, verification_count, revision, timestamps_as_written, search_words)
         VALUES ($1, 'acme/rocket', 'Build command', 'build command', 'The build runs pnpm build.', '[{"path":"package.json","line_start":3,"line_end":4}]', $2, $2, $2, 'active', 0, 1, '{}', ''::tsvector)`,
        [OLD_ID, time],
      );
    });
    const backend = await openPostgresRecordBackend({ ...superuserFields(database), schema });
    const old = await backend.get('acme/rocket', OLD_ID);
    expect(old?.fact).toBe('The build runs pnpm build.');
    expect(old).not.toHaveProperty('learned_on');
    const version = await withSuperuser(database, (client) =>
      client.query(`SELECT value FROM "${schema}".repomem_meta WHERE key = 'schema_version'`),
    );
    expect(version.rows[0]).toEqual({ value: String(POSTGRES_SCHEMA_VERSION) });
    expect(POSTGRES_SCHEMA_VERSION).toBe(2);

    const learned = conformanceRecord({
      id: '00000000-0000-4000-8000-000000000002',
      repo: 'acme/rocket',
      learned_on: { commit: 'a'.repeat(40), ref: 'feature/x' },
      promoted_from: { ref: 'feature/x', commit: 'c'.repeat(40), pull_request: 7 },
      quarantine: { reason: 'pull-request-closed', ref: 'feature/x', at: time },
    });
    expect(await backend.apply([{ record: learned, expectedRevision: null }], [])).toEqual({ ok: true });
    const read = await backend.get('acme/rocket', learned.id);
    expect(read?.learned_on).toEqual(learned.learned_on);
    expect(read?.promoted_from).toEqual(learned.promoted_from);
    expect(read?.quarantine).toEqual(learned.quarantine);
    await backend.close();
  });
});
