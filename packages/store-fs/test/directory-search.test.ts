// Why: a memory tree on disk must search exactly like the same documents in memory: the
// generated corpus written to a directory, and the Sepo fixture tree (Markdown plus `github/*.json`
// mirror files) when it is present. Core ranks; this store only lists and reads, so any
// difference would come from what it lists or the bytes it returns.
import { existsSync } from 'node:fs';
import { cp, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInMemoryStore, SearchEngine, searchStore } from '@repomem/core';
import { generateMemoryCorpus, writeCorpusToDirectory } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DirectoryStore, openDirectoryStore } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const fixtureTree = process.env.REPOMEM_FIXTURE_TREE ?? path.resolve(repoRoot, '../shared/fixtures/sepo-memory-tree');
const QUERIES = [
  'orchestrator review',
  'memory',
  'fix cursor for scheduled runs',
  'zeppelin',
  'pull 12',
  'tests',
  'c++',
];

let root: string;
let store: DirectoryStore | undefined;

beforeEach(async () => {
  root = await freshDirectory('repomem-search-');
});
afterEach(async () => {
  await store?.close();
  store = undefined;
  await removeDirectory(root);
});

describe('searching a directory', () => {
  it('a generated corpus written to disk searches like the same documents in memory', async () => {
    const files = generateMemoryCorpus({ seed: 7, jsonFiles: 300, dailyDays: 10 });
    const documents = files.map((file) => ({ path: file.path, content: file.content }));
    await writeCorpusToDirectory(root, files);
    store = await openDirectoryStore({ root });
    const engine = new SearchEngine();
    for (const query of QUERIES) {
      const expected = engine.searchDocuments(documents, query);
      expect(await engine.search(store, query), query).toEqual(expected);
      expect(await engine.searchOnce(store, query), query).toEqual(expected);
      expect(await searchStore(store, query), query).toEqual(expected);
    }
  });

  it.skipIf(!existsSync(fixtureTree))('the Sepo fixture tree searches like the same files in memory', async () => {
    await cp(fixtureTree, root, { recursive: true });
    store = await openDirectoryStore({ root });
    const initialDocuments: Record<string, Uint8Array> = {};
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const absolute = path.join(entry.parentPath, entry.name);
      initialDocuments[path.relative(root, absolute).split(path.sep).join('/')] = new Uint8Array(
        await readFile(absolute),
      );
    }
    const reference = createInMemoryStore({ initialDocuments });
    expect((await store.list()).map((entry) => [entry.path, entry.version])).toEqual(
      (await reference.list()).map((entry) => [entry.path, entry.version]),
    );
    for (const query of [
      'yolo mode',
      'issue 87',
      'stacked PRs base_pr',
      'canonical docs',
      'orchestrator handoff',
      '記憶',
    ]) {
      for (const options of [{ limit: 8 }, { limit: 3, snippets: 5, prefix: 'github/' }]) {
        expect(await searchStore(store, query, options), query).toEqual(await searchStore(reference, query, options));
      }
    }
  });
});
