import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { searchStore } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openSqliteStore,
  SQLITE_APPLICATION_ID,
  SQLITE_SCHEMA_VERSION,
  type SqliteStore,
  type SqliteStoreOptions,
} from '../src/index.js';
import {
  builtPackageUrl,
  expectRepomemError,
  freshDirectory,
  packageRoot,
  removeDirectory,
  withRawConnection,
  withWritableConnection,
} from './support.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const paths = (response: { results: ReadonlyArray<{ path: string }> }): string[] =>
  response.results.map((hit) => hit.path);
const text = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);

let dir: string;
let file: string;
const opened: SqliteStore[] = [];

async function open(options: Partial<SqliteStoreOptions> = {}): Promise<SqliteStore> {
  const store = await openSqliteStore({ path: file, ...options });
  opened.push(store);
  return store;
}

beforeEach(async () => {
  dir = await freshDirectory();
  file = join(dir, 'memory.db');
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  await chmod(dir, 0o755).catch(() => undefined);
  await removeDirectory(dir);
});

describe('openSqliteStore', () => {
  it('declares its capabilities and identity', async () => {
    const store = await open({ repo: 'acme/rocket' });
    expect(store.name).toBe('sqlite');
    expect(store.file).toBe(file);
    expect(store.repo).toBe('acme/rocket');
    expect(store.readOnly).toBe(false);
    expect(store.specificationVersion).toBe(2);
    expect(store.capabilities).toEqual({
      binarySafe: true,
      atomicDocument: true,
      atomicBatch: true,
      readYourWrites: true,
      compareAndSwap: 'native',
      maxDocumentBytes: 16 * 1024 * 1024,
    });
    expect(store.history).toBeUndefined();
    expect((await open()).repo).toBe('default');
  });

  it('creates the file and its directory, in WAL mode, with a recorded schema version', async () => {
    file = join(dir, 'nested', 'deeper', 'memory.db');
    const store = await open();
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('- a\n') }]);
    withRawConnection(file, (db) => {
      expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
      expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: SQLITE_SCHEMA_VERSION });
      expect(db.prepare('PRAGMA application_id').get()).toEqual({ application_id: SQLITE_APPLICATION_ID });
      const row = db
        .prepare('SELECT repo, path, version, size, indexed, searchable_length, updated_at FROM documents')
        .get() as Record<string, unknown>;
      expect(row).toMatchObject({ repo: 'default', path: 'MEMORY.md', size: 4, indexed: 1, searchable_length: 1 });
      expect(row.version).toMatch(/^[0-9a-f]{64}$/);
      expect(Number.isNaN(Date.parse(String(row.updated_at)))).toBe(false);
    });
  });

  it('keeps documents and the revision across reopening, and shares them between connections', async () => {
    const first = await open({ repo: 'r' });
    const second = await open({ repo: 'r' });
    const before = await first.revision();
    const written = await first.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('- a\n') }]);
    // A write reports versions only; the revision is asked for separately (and is cheap).
    expect(written).toEqual({
      status: 'committed',
      versions: { 'MEMORY.md': createHash('sha256').update('- a\n').digest('hex') },
    });
    expect(await first.revision()).not.toBe(before);
    expect(await first.revision()).toMatch(/^[0-9a-f]{16}\.1$/);
    expect(await second.revision()).toBe(await first.revision());
    expect(text((await second.get('MEMORY.md'))?.content)).toBe('- a\n');
    await first.close();
    const reopened = await open({ repo: 'r' });
    expect(await reopened.revision()).toBe(await second.revision());
    expect(await reopened.list()).toEqual(await second.list());
  });

  it('rejects bad options with INVALID_ARGUMENT', async () => {
    await expectRepomemError(() => openSqliteStore({ path: '' }), 'INVALID_ARGUMENT', 'path');
    await expectRepomemError(() => openSqliteStore({ path: file, repo: '' }), 'INVALID_ARGUMENT', 'repo');
    await expectRepomemError(() => openSqliteStore({ path: file, repo: 'a\0b' }), 'INVALID_ARGUMENT', 'repo');
    await expectRepomemError(
      () => openSqliteStore({ path: file, busyTimeoutMs: -1 }),
      'INVALID_ARGUMENT',
      'busyTimeoutMs',
    );
    await expectRepomemError(
      () => openSqliteStore({ path: file, maxDocumentBytes: 2 ** 40 }),
      'INVALID_ARGUMENT',
      'maxDocumentBytes',
    );
    await expectRepomemError(() => openSqliteStore({ path: dir }), 'INVALID_ARGUMENT', dir);
  });
});

describe('repository scopes', () => {
  it('two stores with different repos on one file never see each other', async () => {
    const a = await open({ repo: 'acme/a' });
    const b = await open({ repo: 'acme/b' });
    await a.write([
      { kind: 'put', path: 'MEMORY.md', content: utf8('- alpha zeppelin\n') },
      { kind: 'put', path: 'daily/2026-05-01.md', content: utf8('# a\n') },
    ]);
    const revisionB = await b.revision();
    expect(await b.list()).toEqual([]);
    expect(await b.get('MEMORY.md')).toBeUndefined();
    expect((await searchStore(b, 'zeppelin')).results).toEqual([]);
    expect((await searchStore(b, 'zeppelin')).documentCount).toBe(0);

    // The same path in both scopes holds different content and versions.
    await b.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('- beta\n'), expectedVersion: null }]);
    expect(text((await a.get('MEMORY.md'))?.content)).toBe('- alpha zeppelin\n');
    expect(text((await b.get('MEMORY.md'))?.content)).toBe('- beta\n');
    expect((await a.list()).map((entry) => entry.path)).toEqual(['MEMORY.md', 'daily/2026-05-01.md']);
    expect((await b.list()).map((entry) => entry.path)).toEqual(['MEMORY.md']);
    expect((await searchStore(a, 'zeppelin')).results.map((hit) => hit.path)).toEqual(['MEMORY.md']);
    expect((await searchStore(a, 'beta')).results).toEqual([]);
    expect(await b.revision()).not.toBe(revisionB);

    // Prefix-scoped search and the scope token itself stay inside the scope.
    expect(await searchStore(b, 'zeppelin', { prefix: 'MEMORY' })).toMatchObject({ documentCount: 1, results: [] });
    expect(paths(await searchStore(a, 'zeppelin', { prefix: 'MEMORY' }))).toEqual(['MEMORY.md']);
    const scopeOfA = `s${createHash('sha256').update('acme/a').digest('hex').slice(0, 24)}`;
    expect((await searchStore(a, scopeOfA)).results).toEqual([]);
    expect((await searchStore(b, scopeOfA)).results).toEqual([]);

    // A delete in one scope leaves the other untouched; a conflict check sees only its own scope.
    await b.write([{ kind: 'delete', path: 'MEMORY.md' }]);
    expect(text((await a.get('MEMORY.md'))?.content)).toBe('- alpha zeppelin\n');
    const result = await b.write([
      { kind: 'put', path: 'daily/2026-05-01.md', content: utf8('b\n'), expectedVersion: null },
    ]);
    expect(result.status).toBe('committed');
  });

  it('each scope has its own revision counter', async () => {
    const a = await open({ repo: 'a' });
    const b = await open({ repo: 'b' });
    const before = await b.revision();
    await a.write([{ kind: 'put', path: 'x.md', content: utf8('x\n') }]);
    expect(await b.revision()).toBe(before);
  });
});

describe('writes and the FTS5 index', () => {
  const ftsRows = (): number =>
    withRawConnection(file, (db) => (db.prepare('SELECT count(*) AS n FROM documents_fts').get() as { n: number }).n);

  it('index rows follow puts, updates and deletes in the same transaction', async () => {
    const store = await open();
    await store.write([
      { kind: 'put', path: 'a.md', content: utf8('- marzipan tundra\n') },
      { kind: 'put', path: 'b.md', content: utf8('- quokka\n') },
    ]);
    expect(ftsRows()).toBe(2);
    await store.write([{ kind: 'put', path: 'a.md', content: utf8('- obsidian\n') }]);
    expect(ftsRows()).toBe(2);
    expect((await searchStore(store, 'marzipan')).results).toEqual([]);
    expect((await searchStore(store, 'obsidian')).results.map((hit) => hit.path)).toEqual(['a.md']);
    await store.write([{ kind: 'delete', path: 'b.md' }]);
    expect(ftsRows()).toBe(1);
    expect((await searchStore(store, 'quokka')).results).toEqual([]);
  });

  it('a conflicting batch leaves documents, index and revision untouched', async () => {
    const store = await open();
    const seeded = await store.write([{ kind: 'put', path: 'a.md', content: utf8('- saffron\n') }]);
    const revision = await store.revision();
    const result = await store.write([
      { kind: 'put', path: 'a.md', content: utf8('- narwhal\n') },
      { kind: 'put', path: 'b.md', content: utf8('- narwhal\n'), expectedVersion: 'stale' },
    ]);
    expect(result.status).toBe('conflict');
    expect(seeded.status).toBe('committed');
    expect(await store.revision()).toBe(revision);
    expect(ftsRows()).toBe(1);
    expect((await searchStore(store, 'narwhal')).results).toEqual([]);
    expect((await searchStore(store, 'saffron')).results.map((hit) => hit.path)).toEqual(['a.md']);
  });

  it('binary and oversized documents are stored byte-exact but not indexed', async () => {
    const store = await open();
    const binary = new Uint8Array([0x71, 0x75, 0x6f, 0x6b, 0x6b, 0x61, 0x00, 0xff]);
    const big = utf8(`${'- quokka\n'.repeat(60_000)}`);
    expect(big.byteLength).toBeGreaterThan(512 * 1024);
    await store.write([
      { kind: 'put', path: 'blob.bin', content: binary },
      { kind: 'put', path: 'big.md', content: big },
      { kind: 'put', path: 'small.md', content: utf8('- quokka\n') },
    ]);
    expect((await store.get('blob.bin'))?.content).toEqual(binary);
    expect((await store.get('big.md'))?.size).toBe(big.byteLength);
    const response = await searchStore(store, 'quokka');
    expect(response.results.map((hit) => hit.path)).toEqual(['small.md']);
    expect(response.documentCount).toBe(1);
    expect(ftsRows()).toBe(1);
    // Shrinking the big document below the limit indexes it; binary content or a delete unindexes.
    await store.write([{ kind: 'put', path: 'big.md', content: utf8('- quokka quokka\n') }]);
    expect((await searchStore(store, 'quokka')).documentCount).toBe(2);
    expect(paths(await searchStore(store, 'quokka'))).toEqual(['big.md', 'small.md']);
    await store.write([
      { kind: 'put', path: 'big.md', content: new Uint8Array([0x71, 0x00]) },
      { kind: 'delete', path: 'small.md' },
    ]);
    expect(await searchStore(store, 'quokka')).toMatchObject({ documentCount: 0, results: [] });
    expect(ftsRows()).toBe(0);
  });

  it('a write blocked by another connection past the busy timeout is LOCK_TIMEOUT and applies nothing', async () => {
    const store = await open({ busyTimeoutMs: 50 });
    await store.write([{ kind: 'put', path: 'a.md', content: utf8('a\n') }]);
    const revision = await store.revision();
    const blocker = new DatabaseSync(file);
    blocker.exec('BEGIN IMMEDIATE');
    try {
      await expectRepomemError(
        () => store.write([{ kind: 'put', path: 'a.md', content: utf8('b\n') }]),
        'LOCK_TIMEOUT',
        file,
      );
      // Readers are not blocked by a writer (WAL).
      expect(text((await store.get('a.md'))?.content)).toBe('a\n');
    } finally {
      blocker.exec('ROLLBACK');
      blocker.close();
    }
    expect(await store.revision()).toBe(revision);
    expect((await store.write([{ kind: 'put', path: 'a.md', content: utf8('b\n') }])).status).toBe('committed');
  });
});

describe('bad database files', () => {
  it('a file of random bytes is BACKEND_UNAVAILABLE naming the file, and is left untouched', async () => {
    const bytes = randomBytes(16 * 1024);
    await writeFile(file, bytes);
    await expectRepomemError(
      () => openSqliteStore({ path: file }),
      'BACKEND_UNAVAILABLE',
      file,
      'not a usable SQLite database',
    );
    await expectRepomemError(() => openSqliteStore({ path: file, readOnly: true }), 'BACKEND_UNAVAILABLE', file);
    expect(Buffer.compare(await readFile(file), bytes)).toBe(0);
  });

  it('a short text file is BACKEND_UNAVAILABLE naming the file, and is left untouched', async () => {
    await writeFile(file, '# not a database\n');
    await expectRepomemError(() => openSqliteStore({ path: file }), 'BACKEND_UNAVAILABLE', file);
    expect(await readFile(file, 'utf8')).toBe('# not a database\n');
  });

  it('a database from a newer schema version is refused, never downgraded', async () => {
    await (await openSqliteStore({ path: file })).close();
    withWritableConnection(file, (db) => db.exec(`PRAGMA user_version = ${SQLITE_SCHEMA_VERSION + 1}`));
    const before = await readFile(file);
    await expectRepomemError(
      () => openSqliteStore({ path: file }),
      'UNSUPPORTED',
      file,
      `schema version ${SQLITE_SCHEMA_VERSION + 1}`,
      'upgrade @repomem/store-sqlite',
    );
    await expectRepomemError(() => openSqliteStore({ path: file, readOnly: true }), 'UNSUPPORTED', file);
    expect(Buffer.compare(await readFile(file), before)).toBe(0);
    withRawConnection(file, (db) =>
      expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: SQLITE_SCHEMA_VERSION + 1 }),
    );
  });

  it("another application's SQLite database is refused and left untouched", async () => {
    withWritableConnection(file, (db) => db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)'));
    await expectRepomemError(() => openSqliteStore({ path: file }), 'UNSUPPORTED', file, 'invoices');
    withRawConnection(file, (db) => {
      const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as Array<{ name: string }>;
      expect(tables.map((row) => row.name)).toEqual(['invoices']);
    });
    await writeFile(join(dir, 'other.db'), '');
    withWritableConnection(join(dir, 'other.db'), (db) => db.exec('PRAGMA application_id = 42'));
    await expectRepomemError(
      () => openSqliteStore({ path: join(dir, 'other.db') }),
      'UNSUPPORTED',
      'application_id 42',
    );
  });

  it('a missing file opened read-only is NOT_FOUND and is not created', async () => {
    await expectRepomemError(() => openSqliteStore({ path: file, readOnly: true }), 'NOT_FOUND', file);
    await expect(readFile(file)).rejects.toThrow();
  });

  it('readOnly: true refuses writes with READ_ONLY; reads and search work; nothing changes', async () => {
    const writer = await open({ repo: 'r' });
    await writer.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('- keep the zeppelin\n') }]);
    const revision = await writer.revision();
    await writer.close();
    const store = await open({ repo: 'r', readOnly: true });
    expect(store.readOnly).toBe(true);
    await expectRepomemError(
      () => store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('x\n') }]),
      'READ_ONLY',
      file,
    );
    await expectRepomemError(() => store.write([{ kind: 'delete', path: 'MEMORY.md' }]), 'READ_ONLY');
    expect(text((await store.get('MEMORY.md'))?.content)).toBe('- keep the zeppelin\n');
    expect((await store.list()).map((entry) => entry.path)).toEqual(['MEMORY.md']);
    expect((await searchStore(store, 'zeppelin')).results.map((hit) => hit.path)).toEqual(['MEMORY.md']);
    expect(await store.revision()).toBe(revision);
  });

  it('a write-protected file (chmod 0444) opens read-only: writes refused, reads work, bytes unchanged', async () => {
    const writer = await open();
    await writer.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('- keep\n') }]);
    await writer.close();
    await chmod(file, 0o444);
    const before = await readFile(file);
    const store = await open();
    expect(store.readOnly).toBe(true);
    await expectRepomemError(
      () => store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('x\n') }]),
      'READ_ONLY',
      file,
    );
    expect(text((await store.get('MEMORY.md'))?.content)).toBe('- keep\n');
    expect((await searchStore(store, 'keep')).results).toHaveLength(1);
    await store.close();
    expect(Buffer.compare(await readFile(file), before)).toBe(0);
  });

  it('a fresh (empty) write-protected file cannot be migrated: READ_ONLY naming the file', async () => {
    await writeFile(file, '');
    await chmod(file, 0o444);
    await expectRepomemError(() => openSqliteStore({ path: file }), 'READ_ONLY', file, 'schema version');
    expect((await readFile(file)).byteLength).toBe(0);
  });

  it('a directory that cannot hold the file is BACKEND_UNAVAILABLE naming the file', async () => {
    await mkdir(join(dir, 'blocked'));
    await writeFile(join(dir, 'blocked', 'not-a-dir'), 'x');
    const target = join(dir, 'blocked', 'not-a-dir', 'memory.db');
    await expectRepomemError(() => openSqliteStore({ path: target }), 'BACKEND_UNAVAILABLE', target);
  });
});

describe('the built package', () => {
  it('imports node:sqlite with its node: prefix (sqlite alone does not resolve)', { timeout: 120_000 }, async () => {
    builtPackageUrl();
    for (const name of ['dist/index.js', 'dist/index.cjs']) {
      const source = await readFile(join(packageRoot, name), 'utf8');
      expect(source, name).toMatch(/["']node:sqlite["']/);
      expect(source, name).not.toMatch(/(from|require\()\s*["']sqlite["']/);
    }
  });
});
