import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { searchStore } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteRecordBackend, openSqliteStore, SQLITE_SCHEMA_VERSION } from '../src/index.js';
import { resolveRecordQuery } from '../src/record-query.js';
import { byPathQuery, bySubjectQuery, recentQuery } from '../src/record-reads.js';
import { create, event, memory, memoryId } from './record-support.js';
import {
  expectRepomemError,
  freshDirectory,
  removeDirectory,
  withRawConnection,
  withWritableConnection,
} from './support.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-record-files-');
  file = join(dir, 'memory.db');
});
afterEach(async () => {
  await chmod(file, 0o644).catch(() => undefined);
  await removeDirectory(dir);
});

const RECORD_TABLES = ['memories', 'memory_citations', 'memories_fts', 'memory_events'];

/**
 * Turn the file into the layout schema version 1 wrote: version 1 had no record tables (the FTS5
 * shadow tables go with their virtual table), no state table and no searchable lengths, and
 * `user_version` 1. (The index rows stay; the version 3 migration rebuilds them anyway.)
 */
function downgradeToVersion1(): void {
  withWritableConnection(file, (db) => {
    for (const table of [...RECORD_TABLES, 'state']) db.exec(`DROP TABLE ${table}`);
    db.exec('ALTER TABLE documents DROP COLUMN searchable_length');
    db.exec('PRAGMA user_version = 1');
  });
}

describe('migrating from schema version 1', () => {
  it('a version 1 file with documents is upgraded in place; documents, revision and search are kept', async () => {
    const store = await openSqliteStore({ path: file, repo: 'acme/rocket' });
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('- ship on fridays\n') }]);
    const revision = await store.revision();
    await store.close();
    downgradeToVersion1();
    withRawConnection(file, (db) => {
      expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: 1 });
      expect(db.prepare("SELECT name FROM sqlite_schema WHERE name = 'memories'").get()).toBeUndefined();
    });

    const backend = openSqliteRecordBackend({ path: file });
    withRawConnection(file, (db) => {
      expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: SQLITE_SCHEMA_VERSION });
      expect(SQLITE_SCHEMA_VERSION).toBe(4);
      const strict = db
        .prepare(
          "SELECT name, strict FROM pragma_table_list WHERE name IN ('memories', 'memory_citations', 'memory_events') ORDER BY name",
        )
        .all();
      expect(strict).toEqual([
        { name: 'memories', strict: 1 },
        { name: 'memory_citations', strict: 1 },
        { name: 'memory_events', strict: 1 },
      ]);
    });
    expect(await backend.apply([create(memory(1))], [event(memory(1))])).toEqual({ ok: true });
    await backend.close();

    const reopened = await openSqliteStore({ path: file, repo: 'acme/rocket' });
    expect(new TextDecoder().decode((await reopened.get('MEMORY.md'))?.content)).toBe('- ship on fridays\n');
    expect(await reopened.revision()).toBe(revision);
    expect((await searchStore(reopened, 'fridays')).results.map((hit) => hit.path)).toEqual(['MEMORY.md']);
    await reopened.close();
  });

  it('a read-only version 1 file is not migrated: READ_ONLY naming the file, bytes unchanged', async () => {
    await (await openSqliteStore({ path: file })).close();
    downgradeToVersion1();
    const before = await readFile(file);
    await expectRepomemError(
      () => openSqliteRecordBackend({ path: file, readOnly: true }),
      'READ_ONLY',
      file,
      'open it writable once',
    );
    expect(Buffer.compare(await readFile(file), before)).toBe(0);
  });

  it('a file from a newer schema version is refused, never downgraded', async () => {
    openSqliteRecordBackend({ path: file }).close();
    withWritableConnection(file, (db) => db.exec(`PRAGMA user_version = ${SQLITE_SCHEMA_VERSION + 1}`));
    const before = await readFile(file);
    await expectRepomemError(
      () => openSqliteRecordBackend({ path: file }),
      'UNSUPPORTED',
      file,
      `schema version ${SQLITE_SCHEMA_VERSION + 1}`,
    );
    await expectRepomemError(() => openSqliteRecordBackend({ path: file, readOnly: true }), 'UNSUPPORTED', file);
    expect(Buffer.compare(await readFile(file), before)).toBe(0);
  });

  it('a corrupt file (random bytes) is BACKEND_UNAVAILABLE naming the file and left untouched', async () => {
    const bytes = randomBytes(8192);
    await writeFile(file, bytes);
    await expectRepomemError(
      () => openSqliteRecordBackend({ path: file }),
      'BACKEND_UNAVAILABLE',
      file,
      'not a usable SQLite database',
    );
    expect(Buffer.compare(await readFile(file), bytes)).toBe(0);
  });

  it('a missing file opened read-only is NOT_FOUND and is not created', async () => {
    await expectRepomemError(() => openSqliteRecordBackend({ path: file, readOnly: true }), 'NOT_FOUND', file);
    await expect(readFile(file)).rejects.toThrow();
  });
});

describe('read-only files', () => {
  for (const how of ['readOnly: true', 'chmod 0444'] as const) {
    it(`${how}: apply and appendEvents are READ_ONLY, queries work, bytes unchanged`, async () => {
      const writer = openSqliteRecordBackend({ path: file });
      await writer.apply([create(memory(1, { fact: 'literal words' }))], [event(memory(1))]);
      await writer.close();
      if (how === 'chmod 0444') await chmod(file, 0o444);
      const before = await readFile(file);
      const backend = openSqliteRecordBackend({ path: file, readOnly: how === 'readOnly: true' });
      expect(backend.readOnly).toBe(true);
      await expect(backend.apply([create(memory(2))], [])).rejects.toMatchObject({ code: 'READ_ONLY' });
      await expect(backend.appendEvents([event(memory(1), 'applied')])).rejects.toMatchObject({ code: 'READ_ONLY' });
      expect((await backend.recent({ repo: 'acme/rocket' })).map((r) => r.id)).toEqual([memoryId(1)]);
      expect((await backend.search({ repo: 'acme/rocket', text: 'literal' })).map((r) => r.id)).toEqual([memoryId(1)]);
      expect(await backend.events({ repo: 'acme/rocket' })).toHaveLength(1);
      await backend.close();
      expect(Buffer.compare(await readFile(file), before)).toBe(0);
    });
  }
});

describe('query plans', () => {
  /** The plan details of `sql`, one line per step. */
  function plan(sql: string, params: Record<string, string | number>): string[] {
    return withRawConnection(file, (db) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((row) => row.detail),
    );
  }

  it('recent, byPath and bySubject walk indexes: no table scan, and recent needs no sort', async () => {
    openSqliteRecordBackend({ path: file }).close();
    const query = resolveRecordQuery(
      { repo: 'acme/rocket', statuses: ['active'], liveAt: '2026-05-01T00:00:00Z', limit: 50 },
      'test',
    );
    const recent = recentQuery(query, 'active');
    const recentPlan = plan(recent.sql, recent.params);
    expect(recentPlan.join('\n')).toMatch(/USING (COVERING )?INDEX memories_recent/);
    expect(recentPlan.join('\n')).not.toMatch(/TEMP B-TREE/);
    const byPath = byPathQuery(query, 'src/a.ts');
    const byPathPlan = plan(byPath.sql, byPath.params).join('\n');
    expect(byPathPlan).toMatch(/memory_citations_path|sqlite_autoindex_memory_citations/);
    const bySubject = bySubjectQuery(query, 'subject');
    expect(plan(bySubject.sql, bySubject.params).join('\n')).toMatch(/INDEX memories_subject/);
    for (const steps of [recentPlan, plan(byPath.sql, byPath.params), plan(bySubject.sql, bySubject.params)]) {
      for (const step of steps) expect(step).not.toMatch(/^SCAN (m|c|memories|memory_citations)\b(?!.*INDEX)/);
    }
  });
});
