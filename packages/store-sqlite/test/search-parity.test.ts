// Why: search has one home. Whatever FTS5 finds, `searchStore` over this store must answer
// exactly like core's reference scan (`searchNaive`) over the same documents in the in-memory
// store: same paths, order, scores, snippets, JSON fields and document counts. Checked here for
// many queries (fixed ones for known edge cases, and seeded random ones drawn from the corpus) on
// a generated memory tree with Unicode edge cases, and on the real Sepo fixture tree when it is
// present (skipped with the reason otherwise).
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { createInMemoryStore, type MemoryStore, SearchEngine, type SearchOptions, searchStore } from '@repomem/core';
import { createSeededRandom, generateMemoryCorpus } from '@repomem/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { freshDirectory, packageRoot, removeDirectory } from './support.js';

type Query = readonly [string, SearchOptions?];

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

const fixtureTree =
  process.env.REPOMEM_FIXTURE_TREE ?? resolve(packageRoot, '../../../shared/fixtures/sepo-memory-tree');

/** Documents whose words SQLite's own Unicode tables split or fold differently from core. */
const UNICODE_EDGES: Readonly<Record<string, string>> = {
  'notes/unicode-edges.md': [
    '- pay₿now with the newer currency sign',
    '- 🥲sad but fine',
    '- private\uE001use characters',
    '- ᏣᎳᎩ is written in Cherokee',
    '- İstanbul mirrors, ΟΔΟΣ signs, STRASSE and straße',
    '- Kelvin sign: 5K',
    '- 東京タワー and 記憶 without spaces',
  ].join('\n'),
  'notes/c++.md': '- Building c++ extensions needs node-gyp.\n',
};

const FIXED_QUERIES: readonly Query[] = [
  ['test'],
  ['tests'],
  ['pnpm test'],
  ['sync workflow'],
  ['cache'],
  ['retry rate limit'],
  ['fix the dist bundle'],
  ['zeppelin'],
  ['pnpm vitest'],
  ['octocat'],
  ['merged'],
  ['ci'],
  ['2026'],
  ['03'],
  ['tests AND docs'],
  ['c++'],
  ['記憶'],
  ['東京'],
  ['now'],
  ['sad'],
  ['use'],
  ['ᏣᎳᎩ'],
  ['İstanbul'],
  ['οδος'],
  ['straße'],
  ['issue'],
  ['pull 12'],
  ['"quoted phrase"'],
  [''],
  ['a'],
  ['test', { prefix: 'daily/' }],
  ['test', { prefix: 'github/' }],
  ['test', { prefix: 'MEMORY' }],
  ['test', { limit: 1, snippets: 0 }],
  ['test', { limit: 3, snippets: 5 }],
  ['release workflow', { limit: 2 }],
  ['deploy', { limit: 1000, snippets: 1000 }],
];

/** Seeded random queries built from the corpus's own words: single words, prefixes, pairs, triples. */
function randomQueries(documents: Readonly<Record<string, string>>, seed: string, count: number): Query[] {
  const random = createSeededRandom(seed);
  const words = [
    ...new Set(
      Object.values(documents)
        .join('\n')
        .match(/[\p{L}\p{N}\p{M}]+/gu) ?? [],
    ),
  ].sort();
  const options: ReadonlyArray<SearchOptions | undefined> = [
    undefined,
    { limit: 1 },
    { limit: 50, snippets: 0 },
    { prefix: 'daily/' },
    { prefix: 'github/' },
  ];
  const queries: Query[] = [];
  for (let index = 0; index < count; index++) {
    const first = random.pick(words);
    const shape = random.int(0, 3);
    let text: string;
    if (shape === 0) text = first;
    else if (shape === 1) text = first.slice(0, random.int(2, Math.max(2, first.length)));
    else if (shape === 2) text = `${first} ${random.pick(words)}`;
    else text = `${first} ${random.pick(words)} ${random.pick(words)}`;
    queries.push([random.chance(0.2) ? text.toUpperCase() : text, random.pick(options)]);
  }
  return queries;
}

/** Load `documents` into a fresh SQLite store and the reference in-memory store. */
async function twins(
  directory: string,
  documents: Readonly<Record<string, string | Uint8Array>>,
): Promise<{ sqlite: SqliteStore; reference: MemoryStore }> {
  const sqlite = await openSqliteStore({ path: join(directory, 'memory.db'), repo: 'acme/rocket' });
  const result = await sqlite.write(
    Object.entries(documents).map(([path, content]) => ({
      kind: 'put' as const,
      path,
      content: typeof content === 'string' ? utf8(content) : content,
    })),
  );
  expect(result.status).toBe('committed');
  return { sqlite, reference: createInMemoryStore({ initialDocuments: documents }) };
}

/** Register one parity test per query. */
function checkParity(label: () => { sqlite: SqliteStore; reference: MemoryStore }, queries: readonly Query[]): void {
  const engine = new SearchEngine();
  for (const [query, options] of queries) {
    it(`${JSON.stringify(query)} ${JSON.stringify(options ?? {})}`, async () => {
      const { sqlite, reference } = label();
      const expected = await engine.searchNaive(reference, query, options);
      expect(await searchStore(sqlite, query, options)).toEqual(expected);
    });
  }
}

describe('searchStore over SQLite equals core’s reference scan: generated corpus', () => {
  const corpus = generateMemoryCorpus({ seed: 'store-sqlite-parity', jsonFiles: 100, dailyDays: 6 });
  const documents: Record<string, string> = {
    ...Object.fromEntries(corpus.map((file) => [file.path, file.content])),
    ...UNICODE_EDGES,
  };
  let directory: string;
  let stores: { sqlite: SqliteStore; reference: MemoryStore };
  beforeAll(async () => {
    directory = await freshDirectory('repomem-sqlite-parity-');
    stores = await twins(directory, documents);
  });
  afterAll(async () => {
    await stores?.sqlite.close();
    await stores?.reference.close();
    await removeDirectory(directory);
  });

  checkParity(() => stores, [...FIXED_QUERIES, ...randomQueries(documents, 'generated', 50)]);

  it('the candidates of a term are exactly the documents core finds it in', async () => {
    const answer = await stores.sqlite.searchCandidates({
      kind: 'lexical',
      terms: [{ text: 'test', prefix: true }],
      prefix: '',
    });
    const everything = await new SearchEngine().searchNaive(stores.reference, 'test', { limit: 100_000 });
    expect(answer.status).toBe('candidates');
    if (answer.status !== 'candidates') return;
    expect(answer.corpus.documentCount).toBe(everything.documentCount);
    expect(answer.candidates.map((candidate) => candidate.path).sort()).toEqual(
      everything.results.map((hit) => hit.path).sort(),
    );
  });
});

/** Every file under `root` as path → bytes (POSIX paths relative to `root`). */
async function readTree(root: string): Promise<Record<string, Uint8Array>> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files: Record<string, Uint8Array> = {};
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const absolute = join(entry.parentPath, entry.name);
    files[relative(root, absolute).split(sep).join('/')] = new Uint8Array(await readFile(absolute));
  }
  return files;
}

describe.skipIf(!existsSync(fixtureTree))(
  `searchStore over SQLite equals core’s reference scan: the Sepo fixture tree (${existsSync(fixtureTree) ? 'present' : `skipped: ${fixtureTree} is absent`})`,
  () => {
    let directory: string;
    let stores: { sqlite: SqliteStore; reference: MemoryStore };
    let documents: Record<string, string> = {};
    beforeAll(async () => {
      const files = await readTree(fixtureTree);
      documents = Object.fromEntries(
        Object.entries(files).map(([path, bytes]) => [path, new TextDecoder().decode(bytes)]),
      );
      directory = await freshDirectory('repomem-sqlite-fixture-parity-');
      stores = await twins(directory, files);
    });
    afterAll(async () => {
      await stores?.sqlite.close();
      await stores?.reference.close();
      if (directory !== undefined) await removeDirectory(directory);
    });

    checkParity(
      () => stores,
      [
        ['yolo mode'],
        ['issue 87'],
        ['stacked PRs base_pr'],
        ['AGENT_ACCESS_POLICY'],
        ['canonical docs', { limit: 20 }],
        ['orchestrator handoff', { limit: 10, snippets: 5 }],
        ['memory'],
        ['sepo'],
        ['workflow', { prefix: 'github/' }],
        ['daily', { prefix: 'daily/' }],
        ['pnpm test', { limit: 3, snippets: 5 }],
        ['c++'],
      ],
    );

    it('random queries drawn from the tree’s own words', async () => {
      const engine = new SearchEngine();
      for (const [query, options] of randomQueries(documents, 'fixture', 10)) {
        const expected = await engine.searchNaive(stores.reference, query, options);
        expect(await searchStore(stores.sqlite, query, options), JSON.stringify([query, options])).toEqual(expected);
      }
    });
  },
);
