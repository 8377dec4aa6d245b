// Why: the store only names search candidates; core ranks them. These tests check the candidate
// answer itself (complete, scoped, corpus figures exact, `unsupported` where FTS5 cannot answer
// like core, query syntax never reaching FTS5) and that `searchStore` over this store answers
// exactly like core's reference scan over the same documents (search-parity.test.ts covers
// larger corpora).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  type CandidateTerm,
  createInMemoryStore,
  SearchEngine,
  type SearchResponse,
  searchableLength,
  searchStore,
} from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { freshDirectory, removeDirectory, withRawConnection } from './support.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

async function seed(store: SqliteStore, documents: Record<string, string | Uint8Array>): Promise<void> {
  const result = await store.write(
    Object.entries(documents).map(([path, content]) => ({
      kind: 'put' as const,
      path,
      content: typeof content === 'string' ? utf8(content) : content,
    })),
  );
  expect(result.status).toBe('committed');
}

const paths = (response: SearchResponse): string[] => response.results.map((hit) => hit.path);
const word = (text: string, prefix = false): CandidateTerm => ({ text, prefix });

/** The candidate paths of a lexical query, sorted. */
async function candidatePaths(store: SqliteStore, terms: CandidateTerm[], prefix = ''): Promise<string[]> {
  const answer = await store.searchCandidates({ kind: 'lexical', terms, prefix });
  if (answer.status !== 'candidates') throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
  expect(answer.complete).toBe(true);
  return answer.candidates.map((candidate) => candidate.path).sort();
}

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

describe('searchCandidates', () => {
  it('names every document holding any term as a word of its text or path, and only those', async () => {
    await seed(store, {
      'a.md': '- quokka\n',
      'b.md': '- quokka narwhal tundra\n',
      'c.md': '- tundra\n',
      'd.md': '- nothing here\n',
      'notes/narwhal.md': '- the path holds the word\n',
      'e.md': '- quokkas are plural\n',
    });
    expect(await candidatePaths(store, [word('quokka'), word('narwhal')])).toEqual([
      'a.md',
      'b.md',
      'notes/narwhal.md',
    ]);
    expect(await candidatePaths(store, [word('quokka', true)])).toEqual(['a.md', 'b.md', 'e.md']);
    expect(await candidatePaths(store, [word('zeppelin')])).toEqual([]);
  });

  it('reports corpus figures over the searchable documents under the prefix, as core counts them', async () => {
    const documents: Record<string, string | Uint8Array> = {
      'MEMORY.md': '# Memory\n\n- Run pnpm test before pushing\n',
      'daily/2026-05-01.md': '- Fixed the flaky test, ΟΔΟΣ İstanbul\n',
      'daily/2026-05-02.md': '',
      'github/issue-1.json': JSON.stringify({ title: 'Flaky test', comments: [{ body: 'pnpm test' }] }),
      'blob.bin': new Uint8Array([0, 1, 2, 3]),
      'big.md': `${'word '.repeat(110_000)}\n`,
    };
    await seed(store, documents);
    for (const prefix of ['', 'daily/', 'github/', 'nothing/']) {
      let documentCount = 0;
      let totalLength = 0;
      for (const [path, content] of Object.entries(documents)) {
        const length = searchableLength(path, typeof content === 'string' ? utf8(content) : content);
        if (!path.startsWith(prefix) || length === undefined) continue;
        documentCount++;
        totalLength += length;
      }
      const answer = await store.searchCandidates({ kind: 'lexical', terms: [word('test')], prefix });
      expect(answer, prefix).toMatchObject({ status: 'candidates', corpus: { documentCount, totalLength } });
    }
  });

  it('stays inside its repository scope and its prefix', async () => {
    const neighbour = await openSqliteStore({ path: store.file, repo: 'acme/other' });
    await seed(neighbour, { 'MEMORY.md': '- zeppelin\n', 'daily/x.md': '- zeppelin\n' });
    await seed(store, { 'daily/a.md': '- zeppelin\n', 'MEMORY.md': '- zeppelin\n', 'dailyx.md': '- zeppelin\n' });
    expect(await candidatePaths(store, [word('zeppelin')], 'daily/')).toEqual(['daily/a.md']);
    expect(await candidatePaths(store, [word('zeppelin')], 'daily')).toEqual(['daily/a.md', 'dailyx.md']);
    const answer = await neighbour.searchCandidates({ kind: 'lexical', terms: [word('zeppelin')], prefix: '' });
    expect(answer).toMatchObject({ corpus: { documentCount: 2 } });
    // The FTS5 scope tokens (`s` + 24 hex digits of the repository's SHA-256) are never words.
    for (const repo of ['acme/other', 'acme/rocket']) {
      const scope = `s${createHash('sha256').update(repo).digest('hex').slice(0, 24)}`;
      expect(await candidatePaths(store, [word(scope)])).toEqual([]);
      expect(await candidatePaths(neighbour, [word(scope)])).toEqual([]);
    }
    await neighbour.close();
  });

  it('follows writes, updates and deletes at once, also from another connection', async () => {
    const other = await openSqliteStore({ path: store.file, repo: 'acme/rocket' });
    await seed(other, { 'a.md': '- kaleidoscope\n', 'b.md': '- marzipan\n' });
    expect(await candidatePaths(store, [word('kaleidoscope')])).toEqual(['a.md']);
    await other.write([
      { kind: 'put', path: 'a.md', content: utf8('- obsidian\n') },
      { kind: 'delete', path: 'b.md' },
    ]);
    expect(await candidatePaths(store, [word('kaleidoscope'), word('marzipan')])).toEqual([]);
    expect(await candidatePaths(store, [word('obsidian')])).toEqual(['a.md']);
    await other.close();
  });

  it('binary and oversized documents are stored byte-exact but never candidates nor counted', async () => {
    const binary = new Uint8Array([0x71, 0x75, 0x6f, 0x6b, 0x6b, 0x61, 0x00, 0xff]);
    const big = utf8(`${'- quokka\n'.repeat(60_000)}`);
    await seed(store, { 'blob.bin': binary, 'big.md': big, 'small.md': '- quokka\n' });
    expect((await store.get('blob.bin'))?.content).toEqual(binary);
    expect(await candidatePaths(store, [word('quokka')])).toEqual(['small.md']);
    await seed(store, { 'big.md': '- quokka quokka\n' });
    expect(await candidatePaths(store, [word('quokka')])).toEqual(['big.md', 'small.md']);
    await seed(store, { 'big.md': new Uint8Array([0x71, 0x00]) });
    const answer = await store.searchCandidates({ kind: 'lexical', terms: [word('quokka')], prefix: '' });
    expect(answer).toMatchObject({ candidates: [{ path: 'small.md' }], corpus: { documentCount: 1 } });
  });

  it('finds words whatever SQLite’s own Unicode tables say (newer symbols, capitals, special casing)', async () => {
    await seed(store, {
      'bitcoin.md': '- pay₿now\n',
      'emoji.md': '- 🥲sad face\n',
      'private.md': '- ab\uE001cd\n',
      'cherokee.md': '- ᏣᎳᎩ language\n',
      'turkish.md': '- İstanbul mirror\n',
      'greek.md': '- ΟΔΟΣ\n',
    });
    expect(await candidatePaths(store, [word('now')])).toEqual(['bitcoin.md']);
    expect(await candidatePaths(store, [word('sad')])).toEqual(['emoji.md']);
    expect(await candidatePaths(store, [word('cd')])).toEqual(['private.md']);
    expect(await candidatePaths(store, [word('ᏣᎳᎩ'.toLowerCase())])).toEqual(['cherokee.md']);
    expect(await candidatePaths(store, [word('İstanbul'.toLowerCase())])).toEqual(['turkish.md']);
    expect(await candidatePaths(store, [word('ΟΔΟΣ'.toLowerCase())])).toEqual(['greek.md']);
  });

  it('answers unsupported for terms the word index cannot answer like core, and for unknown kinds', async () => {
    await seed(store, { 'a.md': '- 東京 タワー c++\n' });
    for (const text of ['東京', 'c++', 'two words', '"quoted"', 'star*', '']) {
      const answer = await store.searchCandidates({ kind: 'lexical', terms: [word(text)], prefix: '' });
      expect(answer.status, text).toBe('unsupported');
    }
    expect((await store.searchCandidates({ kind: 'lexical', terms: [], prefix: '' })).status).toBe('unsupported');
    const vector = { kind: 'vector', embedding: [0.1, 0.2], prefix: '' } as unknown as Parameters<
      SqliteStore['searchCandidates']
    >[0];
    expect(await store.searchCandidates(vector)).toMatchObject({ status: 'unsupported' });
  });

  it('rejects an invalid prefix with INVALID_PATH and a closed store with STORE_CLOSED', async () => {
    await expect(store.searchCandidates({ kind: 'lexical', terms: [word('x1')], prefix: '../' })).rejects.toMatchObject(
      { code: 'INVALID_PATH' },
    );
    await store.close();
    await expect(store.searchCandidates({ kind: 'lexical', terms: [word('x1')], prefix: '' })).rejects.toMatchObject({
      code: 'STORE_CLOSED',
    });
  });

  it('the index holds one row per searchable document', async () => {
    await seed(store, { 'a.md': '- one\n', 'b.md': '- two\n', 'c.bin': new Uint8Array([0]) });
    const rows = withRawConnection(
      store.file,
      (db) => (db.prepare('SELECT count(*) AS n FROM documents_fts').get() as { n: number }).n,
    );
    expect(rows).toBe(2);
  });
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
  const engine = new SearchEngine();
  for (const [query, expected] of queries) {
    it(`${JSON.stringify(query)} does not raise, finds ${JSON.stringify(expected)} and matches core`, async () => {
      await seed(store, documents);
      const response = await searchStore(store, query, { limit: 10 });
      expect(response.query).toBe(query);
      expect([...paths(response)].sort()).toEqual(expected);
      const reference = createInMemoryStore({ initialDocuments: documents });
      expect(response).toEqual(await engine.searchNaive(reference, query, { limit: 10 }));
    });
  }
  it('the documents table survives an injection attempt', async () => {
    await seed(store, documents);
    await searchStore(store, "x'); DROP TABLE documents; --", { limit: 10 });
    await searchStore(store, 'x"); DROP TABLE documents; --', { limit: 10 });
    expect(await store.list()).toHaveLength(Object.keys(documents).length);
  });
});
