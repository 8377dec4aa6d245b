// Why: the driver declares the kit's `readAll` capability so the store's readAll stays what it
// was before the kit: the listing and every content come from ONE read snapshot. A write by
// another connection in the middle of a streamed readAll is not seen by it.
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

let dir: string;
let store: SqliteStore;
beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-snapshot-');
  store = await openSqliteStore({ path: join(dir, 'memory.db'), repo: 'acme/rocket' });
});
afterEach(async () => {
  await store.close();
  await removeDirectory(dir);
});

it('readAll reads one snapshot: a write committed by another connection mid-read is not seen', async () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  await store.write([
    { kind: 'put', path: 'a.md', content: utf8('- a0\n') },
    { kind: 'put', path: 'b.md', content: utf8('- b0\n') },
  ]);
  // A second instance: nothing of the write above is in its content cache.
  const reader = await openSqliteStore({ path: store.file, repo: 'acme/rocket' });
  let written = false;
  // `accept` is asked while the listing is walked, before contents are read: write there.
  const documents = await reader.readAll({
    accept: () => {
      if (written) return true;
      written = true;
      const other = new DatabaseSync(store.file);
      try {
        other.exec(
          "UPDATE document_contents SET content = CAST('- b1' AS BLOB) WHERE id = (SELECT id FROM documents WHERE path = 'b.md')",
        );
      } finally {
        other.close();
      }
      return true;
    },
  });
  const seen = documents.map((document) => `${document.path} ${new TextDecoder().decode(document.content).trim()}`);
  await reader.close();
  expect(seen).toEqual(['a.md - a0', 'b.md - b0']);
  expect(new TextDecoder().decode((await store.get('b.md'))?.content)).toBe('- b1');
});
