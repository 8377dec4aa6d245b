import { join } from 'node:path';
import { createInMemoryStore, type MemoryStore, SearchEngine, type SearchResponse } from '@repomem/core';
import { generateMemoryCorpus } from '@repomem/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { freshDirectory, removeDirectory, withRawConnection } from './support.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

async function seed(store: SqliteStore, documents: Record<string, string>): Promise<void> {
  const result = await store.write(
    Object.entries(documents).map(([path, content]) => ({ kind: 'put' as const, path, content: utf8(content) })),
  );
  expect(result.status).toBe('committed');
}

const paths = (response: SearchResponse): string[] => response.results.map((hit) => hit.path);

let dir: string;
let store: SqliteStore;

beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-search-');
  store = await openSqliteStore({ path: join(dir, 'memory.db'), repo: 'acme/rocket' });
});
afterEach(async () => {
  await store.close();
  await removeDirectory(dir);
});

describe('FTS5 syntax and SQL in queries is searched literally', () => {
  const documents = {
    'near.md': '- NEAR the release we freeze merges\n',
    'logic.md': '- tests AND lint OR build, NOT docs\n',
    'quote.md': '- say "hello" to the deploy-bot\n',
    'star.md': '- glob *.md files with star patterns\n',
    'column.md': '- body:path is not a column filter here\n',
  };
  const queries: ReadonlyArray<readonly [string, string[]]> = [
    ['"', []],
    ['""', []],
    ['"unterminated', []],
    ['say "hello', ['quote.md']],
    ['*', []],
    ['star*', ['star.md']],
    ['*.md', ['column.md', 'logic.md', 'near.md', 'quote.md', 'star.md']],
    ['NEAR', ['near.md']],
    ['NEAR(release freeze)', ['near.md']],
    ['near/2', ['near.md']],
    ['-', []],
    ['-lint', ['logic.md']],
    ['deploy-bot', ['quote.md']],
    ['AND', ['logic.md']],
    ['OR', ['logic.md']],
    ['NOT docs', ['column.md', 'logic.md']],
    ['tests AND', ['logic.md']],
    ['body:path', ['column.md']],
    ['{body path}: column', ['column.md']],
    ['^glob', ['star.md']],
    ['(release', ['near.md']],
    ['+merges', ['near.md']],
    ["'; DROP TABLE documents; --", []],
    ['" OR 1=1 --', ['logic.md']],
    ['\\', []],
    ['%_%', []],
  ];
  for (const [query, expected] of queries) {
    it(`${JSON.stringify(query)} does not raise and finds ${JSON.stringify(expected)}`, async () => {
      await seed(store, documents);
      const response = await store.search(query, { limit: 10 });
      expect(response.query).toBe(query);
      expect([...paths(response)].sort()).toEqual(expected);
    });
  }
  it('the documents table survives an injection attempt', async () => {
    await seed(store, documents);
    await store.search("x'); DROP TABLE documents; --", { limit: 10 });
    await store.search('x"); DROP TABLE documents; --', { limit: 10 });
    expect(await store.list()).toHaveLength(Object.keys(documents).length);
  });
});

describe('ranking', () => {
  it('ranks a document whose path holds the term above one mentioning it once in the body', async () => {
    await seed(store, {
      'notes/zeppelin.md': '- an unrelated line about the weather\n',
      'notes/other.md': '- one mention of zeppelin among many many other words in this long line\n',
    });
    expect(paths(await store.search('zeppelin'))).toEqual(['notes/zeppelin.md', 'notes/other.md']);
  });

  it('ranks a document matching every term above documents matching one', async () => {
    await seed(store, {
      'a.md': '- quokka\n',
      'b.md': '- quokka narwhal tundra\n',
      'c.md': '- tundra\n',
      'd.md': '- nothing here\n',
    });
    const response = await store.search('quokka narwhal tundra', { limit: 10 });
    expect(paths(response)[0]).toBe('b.md');
    expect([...paths(response)].sort()).toEqual(['a.md', 'b.md', 'c.md']);
    expect(response.results[0]?.matchedTerms).toEqual(['quokka', 'narwhal', 'tundra']);
    expect(response.results[0]?.matchCount).toBe(3);
    expect(response.documentCount).toBe(4);
    const scores = response.results.map((hit) => hit.score);
    expect([...scores].sort((x, y) => y - x)).toEqual(scores);
    for (const score of scores) expect(score).toBeGreaterThan(0);
  });

  it('ranks documents holding the whole query as a phrase first, like core', async () => {
    await seed(store, {
      'scattered.md': '- merge the branch\n- queue the job\n- merge and queue again, merge queue\n',
      'phrase.md': '- the merge queue is stuck\n',
      'one.md': '- merge\n',
    });
    const response = await store.search('merge queue', { limit: 10 });
    expect(paths(response)).toEqual(['phrase.md', 'scattered.md', 'one.md']);
    expect(response.results[2]?.matchedTerms).toEqual(['merge']);
  });

  it('ranks a rare term above a common one', async () => {
    const common = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`n${i}.md`, '- deploy the build\n']));
    await seed(store, { ...common, 'rare.md': '- deploy with idempotency keys\n' });
    expect(paths(await store.search('deploy idempotency', { limit: 3 }))[0]).toBe('rare.md');
  });

  it('matches words by prefix from 3 characters, exactly below, like core', async () => {
    await seed(store, { 'a.md': '- deployment notes\n', 'b.md': '- cider and civic\n', 'c.md': '- ci is green\n' });
    expect(paths(await store.search('deploy'))).toEqual(['a.md']);
    expect(paths(await store.search('ci'))).toEqual(['c.md']);
    expect(paths(await store.search('cid'))).toEqual(['b.md']);
  });

  it('is case-insensitive and keeps diacritics and combining marks like core', async () => {
    await seed(store, { 'a.md': '- Déploiement du Café\n', 'b.md': '- deploiement sans accent\n' });
    expect(paths(await store.search('DÉPLOIEMENT'))).toEqual(['a.md']);
    expect(paths(await store.search('café'))).toEqual(['a.md']);
  });

  it('limit, prefix and an empty query', async () => {
    await seed(store, { 'daily/a.md': '- quokka\n', 'daily/b.md': '- quokka\n', 'MEMORY.md': '- quokka\n' });
    expect(await store.search('quokka', { limit: 1 })).toMatchObject({ documentCount: 3, results: [{}] });
    const scoped = await store.search('quokka', { prefix: 'daily/' });
    expect([...paths(scoped)].sort()).toEqual(['daily/a.md', 'daily/b.md']);
    expect(scoped.documentCount).toBe(2);
    expect(await store.search('  ')).toEqual({ query: '  ', terms: [], documentCount: 3, results: [] });
    expect((await store.search('quokka', { prefix: 'dai' })).documentCount).toBe(2);
  });

  it('rejects bad options like core: INVALID_ARGUMENT, INVALID_PATH', async () => {
    await expect(store.search('x', { limit: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(store.search('x', { limit: 1.5 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(store.search('x', { snippets: -1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(store.search('x', { prefix: '../' })).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });

  it('is never stale: sees writes made through another connection', async () => {
    const other = await openSqliteStore({ path: store.file, repo: 'acme/rocket' });
    await seed(other, { 'a.md': '- kaleidoscope\n' });
    expect(paths(await store.search('kaleidoscope'))).toEqual(['a.md']);
    await other.write([{ kind: 'delete', path: 'a.md' }]);
    expect(paths(await store.search('kaleidoscope'))).toEqual([]);
    await other.close();
  });

  it('after close() rejects with STORE_CLOSED', async () => {
    await store.close();
    await expect(store.search('x')).rejects.toMatchObject({ code: 'STORE_CLOSED' });
  });
});

describe('snippets', () => {
  it('are the best lines with 1-based line numbers, at most `snippets` of them', async () => {
    await seed(store, {
      'MEMORY.md':
        '# Memory\n\n## Conventions\n- run vitest before pushing\n- keep vitest and biome green\n- biome only\n',
    });
    const [hit] = (await store.search('vitest biome', { snippets: 2 })).results;
    expect(hit?.snippets).toHaveLength(2);
    expect(hit?.snippets[0]).toMatchObject({ lineNumber: 5, text: '- keep vitest and biome green', matchCount: 2 });
    expect(hit?.snippets.map((snippet) => snippet.field)).toEqual([undefined, undefined]);
    expect((await store.search('vitest', { snippets: 0 })).results[0]?.snippets).toEqual([]);
  });

  it('JSON mirror files give `field: value` snippets with the field path', async () => {
    const issue = {
      number: 7,
      title: 'Flaky deploy',
      comments: [
        { author: { login: 'octocat' }, body: 'First comment' },
        { author: { login: 'mona' }, body: 'The canary rollout fails\nwhen the quorum is lost' },
      ],
    };
    await seed(store, { 'github/acme/rocket/issue-7.json': `${JSON.stringify(issue, null, 2)}\n` });
    const [hit] = (await store.search('quorum canary')).results;
    expect(hit?.snippets.map((snippet) => [snippet.field, snippet.text])).toEqual([
      ['comments[1].body', 'comments[1].body: The canary rollout fails'],
      ['comments[1].body', 'comments[1].body: when the quorum is lost'],
    ]);
    // Keys are not indexed, values are: "comments" and "login" never match, "mona" does.
    expect((await store.search('login')).results).toEqual([]);
    expect(paths(await store.search('mona'))).toEqual(['github/acme/rocket/issue-7.json']);
  });

  it('long lines are cut to 220 characters around the match', async () => {
    await seed(store, { 'a.md': `- ${'filler '.repeat(60)}zeppelin ${'filler '.repeat(60)}\n` });
    const snippet = (await store.search('zeppelin')).results[0]?.snippets[0];
    expect(snippet?.text.length).toBeLessThanOrEqual(220);
    expect(snippet?.text).toContain('zeppelin');
    expect(snippet?.text.startsWith('…')).toBe(true);
  });
});

describe('same matches as core’s engine', () => {
  const corpus = generateMemoryCorpus({ seed: 'store-sqlite', jsonFiles: 120, dailyDays: 6 });
  let reference: MemoryStore;
  const engine = new SearchEngine();
  let shared: SqliteStore;
  let sharedDir: string;

  beforeAll(async () => {
    reference = createInMemoryStore({
      initialDocuments: Object.fromEntries(corpus.map((file) => [file.path, file.content])),
    });
    sharedDir = await freshDirectory('repomem-sqlite-parity-');
    shared = await openSqliteStore({ path: join(sharedDir, 'memory.db') });
    const result = await shared.write(
      corpus.map((file) => ({ kind: 'put' as const, path: file.path, content: utf8(file.content) })),
    );
    expect(result.status).toBe('committed');
  });
  afterAll(async () => {
    await shared.close();
    await removeDirectory(sharedDir);
  });

  const queries = [
    'sync workflow',
    'cache',
    'retry rate limit',
    'fix the dist bundle',
    'zeppelin',
    'pnpm vitest',
    'octocat',
    'merged',
    'ci',
    '2026',
    'tests AND docs',
    'c++',
    '記憶',
  ];
  for (const query of queries) {
    it(`${JSON.stringify(query)}: same documents, terms, matched terms and snippet lines`, async () => {
      const all = { limit: 10_000, snippets: 1000 };
      const expected = await engine.search(reference, query, all);
      const actual = await shared.search(query, all);
      expect(actual.terms).toEqual(expected.terms);
      expect(actual.documentCount).toBe(expected.documentCount);
      expect([...paths(actual)].sort()).toEqual([...paths(expected)].sort());
      const byPath = new Map(expected.results.map((hit) => [hit.path, hit]));
      for (const hit of actual.results) {
        const twin = byPath.get(hit.path);
        expect(hit.matchedTerms, hit.path).toEqual(twin?.matchedTerms);
        const lines = (h: typeof hit | undefined) =>
          (h?.snippets ?? []).map((s) => `${s.lineNumber} ${s.field ?? ''} ${s.text} ${s.matchCount}`).sort();
        expect(lines(hit), hit.path).toEqual(lines(twin));
      }
    });
  }

  it('the index holds one row per text document', () => {
    const rows = withRawConnection(
      shared.file,
      (db) => (db.prepare('SELECT count(*) AS n FROM documents_fts').get() as { n: number }).n,
    );
    expect(rows).toBe(corpus.length);
  });
});
