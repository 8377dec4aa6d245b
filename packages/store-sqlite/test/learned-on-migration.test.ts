// Why: test/fixtures/schema-v3.db was written by @repomem/store-sqlite at schema version 3, before
// memories recorded where they were learned (issue 26). Opening it now must add the learned-on
// columns in place, read the old memory back unchanged (no `learned_on`: the default branch's
// scope) and keep the new fields of memories written after.
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteRecordBackend, SQLITE_SCHEMA_VERSION } from '../src/index.js';
import { change, create, memory } from './record-support.js';
import { freshDirectory, removeDirectory, withRawConnection, withWritableConnection } from './support.js';

const fixture = join(import.meta.dirname, 'fixtures', 'schema-v3.db');
const OLD_ID = '00000000-0000-4000-8000-000000000001';
let dir: string;
let file: string;

beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-learned-on-');
  file = join(dir, 'memory.db');
  await copyFile(fixture, file);
});
afterEach(async () => {
  await removeDirectory(dir);
});

const userVersion = (): number =>
  withRawConnection(file, (db) =>
    Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version),
  );

describe('migrating a schema version 3 database to learned-on columns', () => {
  it('keeps the old memory as it was and round-trips the new fields', async () => {
    expect(userVersion()).toBe(3);
    const backend = openSqliteRecordBackend({ path: file });
    const old = await backend.get('acme/rocket', OLD_ID);
    expect(userVersion()).toBe(SQLITE_SCHEMA_VERSION);
    expect(old?.fact).toBe('The build runs pnpm build from the repository root.');
    expect(old).not.toHaveProperty('learned_on');
    expect(old).not.toHaveProperty('quarantine');

    const learned = memory(2, { learned_on: { commit: 'a'.repeat(40), ref: 'feature/x' } });
    expect(await backend.apply([create(learned)], [])).toEqual({ ok: true });
    expect((await backend.get('acme/rocket', learned.id))?.learned_on).toEqual(learned.learned_on);

    const promoted = change(learned, {
      learned_on: { commit: 'b'.repeat(40), ref: 'main' },
      promoted_from: { ref: 'feature/x', commit: 'a'.repeat(40), pull_request: 7 },
    });
    expect(await backend.apply([promoted], [])).toEqual({ ok: true });
    const read = await backend.get('acme/rocket', learned.id);
    expect(read?.learned_on).toEqual({ commit: 'b'.repeat(40), ref: 'main' });
    expect(read?.promoted_from).toEqual({ ref: 'feature/x', commit: 'a'.repeat(40), pull_request: 7 });

    if (old === undefined) throw new Error('the fixture memory is missing');
    const quarantine = { reason: 'pull-request-closed' as const, ref: 'old', at: '2026-05-02T00:00:00.000Z' };
    expect(await backend.apply([change(old, { quarantine })], [])).toEqual({ ok: true });
    expect((await backend.get('acme/rocket', OLD_ID))?.quarantine).toEqual(quarantine);
    await backend.close();
  });

  it('reports a hand-damaged quarantine column by the memory it belongs to', async () => {
    const backend = openSqliteRecordBackend({ path: file });
    await backend.get('acme/rocket', OLD_ID);
    await backend.close();
    withWritableConnection(file, (db) => db.exec("UPDATE memories SET quarantine = '{not json'"));
    const reopened = openSqliteRecordBackend({ path: file });
    await expect(reopened.get('acme/rocket', OLD_ID)).rejects.toThrow(
      /memory .* is corrupt: its quarantine is not JSON/,
    );
    await reopened.close();
  });
});
