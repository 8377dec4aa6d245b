// Why: files outlive package versions. test/fixtures/schema-v2.db was written by
// @repomem/store-sqlite at schema version 2 (two repository scopes, Markdown, JSON, binary, a
// deleted document, capitals and İ in the text). Opening it now must migrate it in place: the
// state table and per-document searchable lengths added and backfilled, the FTS5 index rebuilt
// with core's words, documents and revisions kept, and search equal to core's reference scan.
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInMemoryStore, SearchEngine, searchableLength, searchStore } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, SQLITE_SCHEMA_VERSION } from '../src/index.js';
import { expectRepomemError, freshDirectory, removeDirectory, withRawConnection } from './support.js';

const fixture = join(import.meta.dirname, 'fixtures', 'schema-v2.db');
let dir: string;
let file: string;

beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-migration-');
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

describe('migrating a schema version 2 database', () => {
  it('keeps documents and revisions, backfills searchable lengths, rebuilds the index, adds state', async () => {
    expect(userVersion()).toBe(2);
    const store = await openSqliteStore({ path: file, repo: 'acme/rocket' });
    expect(userVersion()).toBe(SQLITE_SCHEMA_VERSION);
    expect((await store.list()).map((entry) => entry.path)).toEqual([
      'MEMORY.md',
      'assets/logo.bin',
      'daily/2026-05-02.md',
      'github/acme/rocket/issues/issue-7.json',
    ]);
    expect(await store.revision()).toMatch(/^[0-9a-f]{16}\.2$/);

    const documents = Object.fromEntries(
      await Promise.all(
        (await store.list()).map(async (entry) => [entry.path, (await store.get(entry.path))?.content as Uint8Array]),
      ),
    ) as Record<string, Uint8Array>;
    withRawConnection(file, (db) => {
      const rows = db
        .prepare("SELECT path, indexed, searchable_length AS length FROM documents WHERE repo = 'acme/rocket'")
        .all() as Array<{ path: string; indexed: number; length: number | null }>;
      for (const row of rows) {
        const expected = searchableLength(row.path, documents[row.path] as Uint8Array) ?? null;
        expect({ path: row.path, length: row.length, indexed: row.indexed }).toEqual({
          path: row.path,
          length: expected,
          indexed: expected === null ? 0 : 1,
        });
      }
      const counts = db.prepare('SELECT repo, indexed_count AS n FROM repos ORDER BY repo').all();
      expect(counts).toEqual([
        { repo: 'acme/rocket', n: 3 },
        { repo: 'neighbour/repo', n: 1 },
      ]);
      expect((db.prepare('SELECT count(*) AS n FROM documents_fts').get() as { n: number }).n).toBe(4);
    });

    const reference = createInMemoryStore({ initialDocuments: documents });
    const engine = new SearchEngine();
    for (const query of ['pnpm test', 'İstanbul', 'deployment', 'canary rollout', 'flaky', 'ci', 'neighbour']) {
      expect(await searchStore(store, query), query).toEqual(await engine.searchNaive(reference, query));
    }
    expect((await store.state.put('sync/acme/rocket', { cursor: 1 }, null)).status).toBe('committed');
    await store.close();

    const neighbour = await openSqliteStore({ path: file, repo: 'neighbour/repo' });
    expect((await searchStore(neighbour, 'neighbour')).results.map((hit) => hit.path)).toEqual(['MEMORY.md']);
    expect(await neighbour.state.list()).toEqual([]);
    await neighbour.close();
  });

  it('opened read-only it is not migrated: READ_ONLY naming the file, bytes unchanged', async () => {
    const before = await readFile(file);
    await expectRepomemError(
      () => openSqliteStore({ path: file, readOnly: true }),
      'READ_ONLY',
      file,
      'open it writable once',
    );
    expect(Buffer.compare(await readFile(file), before)).toBe(0);
  });

  it('migrates once when two stores open it one after the other', async () => {
    const first = await openSqliteStore({ path: file, repo: 'acme/rocket' });
    await first.state.put('k', 1);
    const second = await openSqliteStore({ path: file, repo: 'acme/rocket' });
    expect((await second.state.get('k'))?.value).toBe(1);
    expect(await second.revision()).toBe(await first.revision());
    await first.close();
    await second.close();
  });
});

describe('a read-only open through the sqlite: scheme (what read-only CLI commands do)', () => {
  it('migrates an older writable file first, so searching keeps working after an upgrade', async () => {
    const { StoreRegistry } = await import('@repomem/core');
    const { storeScheme } = await import('../src/index.js');
    const registry = new StoreRegistry({ builtins: false });
    registry.registerStoreScheme(storeScheme);
    const store = await registry.openStore(`sqlite:${file}`, {
      repo: 'acme/rocket',
      readOnly: true,
      cwd: dir,
      env: {},
    });
    expect(userVersion()).toBe(SQLITE_SCHEMA_VERSION);
    expect((await store.list()).length).toBeGreaterThan(0);
    await expectRepomemError(() => store.write([]), 'READ_ONLY');
    await store.close();
  });
});
