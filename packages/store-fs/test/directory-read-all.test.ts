// Why: a cold `repomem search` reads a directory tree through `readAll` (one read per file for
// both bytes and version) instead of `list()` (which hashes every file) then `get()` (which reads
// it again). These tests pin what the directory store's readAll adds beyond the conformance
// group: the size limit, files it must never read, and that the engine's one-shot search uses it
// and answers exactly as the list/get path does.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type MemoryStore, SearchEngine } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DirectoryStore, openDirectoryStore } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

const DOCUMENTS: Record<string, string> = {
  'MEMORY.md': '# Memory\n\n## Durable\n- Tests run with `pnpm test`; memory branch push is daily.\n',
  'daily/2026-03-01.md': '- Fixed the flaky test in memory branch\n',
  'github/issue-87.json': JSON.stringify({ title: 'Issue 87: memory branch', body: 'push the branch' }),
  'notes/big.md': `${'memory '.repeat(80_000)}\n`,
  'binary.bin': '\u0000\u0001memory',
};

let root: string;
let store: DirectoryStore;

beforeEach(async () => {
  root = await freshDirectory('repomem-read-all-');
  for (const [path, content] of Object.entries(DOCUMENTS)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), content);
  }
  store = await openDirectoryStore({ root, maxDocumentBytes: 1024 * 1024 });
});

afterEach(async () => {
  await store.close();
  await removeDirectory(root);
});

/** The same store seen through list/get only, counting every call. */
function withoutReadAll(inner: MemoryStore): MemoryStore & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    specificationVersion: inner.specificationVersion,
    name: inner.name,
    capabilities: inner.capabilities,
    state: inner.state,
    get: (path) => {
      calls.push(`get ${path}`);
      return inner.get(path);
    },
    list: (prefix) => {
      calls.push('list');
      return inner.list(prefix);
    },
    write: (operations) => inner.write(operations),
    revision: () => inner.revision(),
    close: () => inner.close(),
  };
}

describe('directory store readAll', () => {
  it('returns the bytes and the versions list() reports', async () => {
    const listed = await store.list();
    const read = await store.readAll();
    expect(read.map(({ path, version, size }) => ({ path, version, size }))).toEqual(listed);
    expect(new TextDecoder().decode(read.find((document) => document.path === 'MEMORY.md')?.content)).toBe(
      DOCUMENTS['MEMORY.md'],
    );
  });

  it('throws FILE_TOO_LARGE for an accepted file above maxDocumentBytes, and reads nothing refused', async () => {
    const small = await openDirectoryStore({ root, maxDocumentBytes: 1000 });
    try {
      await expect(small.readAll()).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
      const read = await small.readAll({ accept: (_path, size) => size <= 1000 });
      expect(read.map((document) => document.path)).toEqual([
        'MEMORY.md',
        'binary.bin',
        'daily/2026-03-01.md',
        'github/issue-87.json',
      ]);
    } finally {
      await small.close();
    }
  });

  it('streams each document to `each`, in path order, returning nothing, with the same bytes and versions', async () => {
    const streamed: Array<{ path: string; version: string; size: number; content: string }> = [];
    const returned = await store.readAll({
      accept: (path) => path !== 'notes/big.md',
      each: (document) =>
        streamed.push({
          path: document.path,
          version: document.version,
          size: document.size,
          content: new TextDecoder().decode(document.content),
        }),
    });
    expect(returned).toEqual([]);
    const read = (await store.readAll({ accept: (path) => path !== 'notes/big.md' })).map((document) => ({
      ...document,
      content: new TextDecoder().decode(document.content),
    }));
    expect(streamed).toEqual(read);
  });

  it('names the document over 512 KiB in the response of every search path, and searches the rest', async () => {
    const plain = withoutReadAll(store);
    const engine = new SearchEngine();
    const expected = [{ path: 'notes/big.md', reason: 'too-large', bytes: DOCUMENTS['notes/big.md']?.length }];
    for (const response of [
      await engine.searchOnce(store, 'memory'),
      await engine.searchOnce(plain, 'memory'),
      await engine.searchNaive(store, 'memory'),
      await engine.search(store, 'memory'),
    ]) {
      expect(response.skipped).toEqual(expected);
      expect(response.results.map((hit) => hit.path)).not.toContain('notes/big.md');
    }
    expect((await engine.searchOnce(store, 'memory', { prefix: 'daily/' })).skipped).toBeUndefined();
  });

  it('never reads through a symbolic link', async () => {
    const outside = await freshDirectory('repomem-read-all-outside-');
    try {
      await writeFile(join(outside, 'secret.md'), 'memory secret\n');
      await symlink(join(outside, 'secret.md'), join(root, 'linked.md'));
      await symlink(outside, join(root, 'linked-dir'));
      const paths = (await store.readAll()).map((document) => document.path);
      expect(paths).not.toContain('linked.md');
      expect(paths.some((path) => path.startsWith('linked-dir'))).toBe(false);
    } finally {
      await removeDirectory(outside);
    }
  });

  it('is what a one-shot search reads, with the same answers as list and get', async () => {
    const engine = new SearchEngine();
    const plain = withoutReadAll(store);
    for (const query of ['memory branch push', 'memory', 'issue 87', 'nothing-here']) {
      for (const options of [{}, { limit: 1, snippets: 1 }, { prefix: 'daily/' }]) {
        const expected = await engine.searchOnce(plain, query, options);
        expect(await engine.searchOnce(store, query, options), query).toEqual(expected);
        expect(await engine.searchNaive(store, query, options), query).toEqual(expected);
      }
    }
    expect(plain.calls).toContain('list');
    // The oversized document was listed but never read on the list/get path either.
    expect(plain.calls).not.toContain('get notes/big.md');
  });
});
