// Why: the store now runs on core's kit (createStore on the SQLite driver) over the same tables.
// A database written by the release before the port (fixtures/pre-kit.db, written by
// fixtures/write-pre-kit.mjs with that build; pre-kit.json is what it answered) must open and
// read identically: the same listing and versions, contents, state values and versions, revision,
// and search candidates; and the port writes on top of it (state compare-and-swap on the old
// versions, documents, the revision counter moving on).
import { createHash } from 'node:crypto';
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

const fixtures = join(import.meta.dirname, 'fixtures');
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

interface Answered {
  readonly revision: string;
  readonly list: unknown;
  readonly state: ReadonlyArray<{ key: string; version: string }>;
  readonly candidates: unknown;
}

let dir: string;
let file: string;
let expected: Record<string, Answered>;
const opened: SqliteStore[] = [];

beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-pre-kit-');
  file = join(dir, 'memory.db');
  await copyFile(join(fixtures, 'pre-kit.db'), file);
  expected = JSON.parse(await readFile(join(fixtures, 'pre-kit.json'), 'utf8'));
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  await removeDirectory(dir);
});

async function open(repo: string): Promise<SqliteStore> {
  const store = await openSqliteStore({ path: file, repo });
  opened.push(store);
  return store;
}

describe('a database written before the kit port', () => {
  it('reads identically: listing, versions, contents, state, revision and search candidates', async () => {
    for (const [repo, answered] of Object.entries(expected)) {
      const store = await open(repo);
      expect(await store.list()).toEqual(answered.list);
      expect(await store.state.list()).toEqual(answered.state);
      expect(await store.revision()).toBe(answered.revision);
      const candidates = await store.searchCandidates({
        kind: 'lexical',
        terms: [
          { text: 'zeppelin', prefix: false },
          { text: 'quok', prefix: true },
        ],
        prefix: '',
      });
      expect(candidates).toEqual(answered.candidates);
      for (const document of await store.readAll()) expect(document.version).toBe(sha256(document.content));
      expect(new TextDecoder().decode((await store.get('MEMORY.md'))?.content)).toContain(`${repo} keeps the zeppelin`);
      expect(Array.from((await store.get('blob.bin'))?.content ?? [])).toEqual([9, 8, 7]);
    }
  });

  it('takes writes on top: state compare-and-swap on the old versions, documents, the revision moving on', async () => {
    const store = await open('acme/rocket');
    const before = expected['acme/rocket'] as Answered;
    const cursor = before.state.find((entry) => entry.key === 'sync/cursor');
    expect((await store.state.put('sync/cursor', { cursor: 'next' }, cursor?.version)).status).toBe('committed');
    const memory = await store.get('MEMORY.md');
    const written = await store.write([
      {
        kind: 'put',
        path: 'MEMORY.md',
        content: new TextEncoder().encode('- moved\n'),
        expectedVersion: memory?.version,
      },
    ]);
    expect(written.status).toBe('committed');
    expect(await store.revision()).not.toBe(before.revision);
    const other = await open('acme/other');
    expect(await other.revision()).toBe((expected['acme/other'] as Answered).revision);
  });
});
