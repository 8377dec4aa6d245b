// Why: a query must rank the same on every store. This group seeds the same documents into the
// store under test and into the reference in-memory store, runs the same queries through
// `searchStore` (which uses the store's candidates when it offers them) and through core's naive
// reference scan, and requires identical responses: paths, scores, snippets, JSON field paths.
import { SearchEngine } from '../search/engine.js';
import { searchStore } from '../search/search-store.js';
import type { SearchOptions } from '../search/types.js';
import { createInMemoryStore } from '../store/memory-store.js';
import type { ConformanceHarness } from './conformance-support.js';

/** Documents of the search-parity group: Markdown, JSON mirror files, Unicode, a binary file. */
export const SEARCH_PARITY_DOCUMENTS: Readonly<Record<string, string | Uint8Array>> = Object.freeze({
  'MEMORY.md':
    '# Memory\n\n## Conventions\n- Run pnpm test before pushing\n- Tests live next to the code\n- Use `pnpm lint --fix` for formatting\n',
  'PROJECT.md':
    '# Project\n\n## Build\n- The build uses tsup and turbo\n- Node 24 is tested; Node 22.16 is the floor\n',
  'daily/2026-05-01.md': '# 2026-05-01\n\n## Activity\n- Fixed the flaky test in search\n- Reviewed pull request 209\n',
  'daily/2026-05-02.md': '# 2026-05-02\n\n## Activity\n- Testing the release workflow\n- pnpm test passed on CI\n',
  'knowledge/deploy.md': 'Deploys run from the release workflow. Rollback with the previous tag.\n',
  'knowledge/unicode.md': 'Café crème au lait. Größe und Übergröße. 東京 タワー 검색 테스트\n',
  'knowledge/long.md': `${'filler words without the magic term\n'.repeat(200)}the needle appears once\n`,
  'github/acme/app/issues/issue-12.json': JSON.stringify({
    number: 12,
    title: 'Search ranks test files too high',
    body: 'When searching for test the ranking is off.',
    comments: [{ body: 'pnpm test reproduces it' }, { body: 'fixed in pull 209' }],
  }),
  'github/acme/app/pulls/pull-209.json': JSON.stringify({
    number: 209,
    title: 'Rank path hits',
    files: [{ path: 'packages/core/src/search/scoring.ts' }],
  }),
  'notes/c++.md': 'Building c++ extensions needs node-gyp.\n',
  'notes/testing-guide.md': 'A guide to testing: unit tests, integration tests, end-to-end tests.\n',
  'assets/logo.bin': new Uint8Array([0, 1, 2, 3, 0, 255, 254]),
});

/** Queries of the search-parity group, with options. */
export const SEARCH_PARITY_QUERIES: ReadonlyArray<readonly [string, SearchOptions?]> = [
  ['test'],
  ['pnpm test'],
  ['Run pnpm test before pushing'],
  ['tests'],
  ['testing guide'],
  ['release workflow', { limit: 2 }],
  ['209'],
  ['pull'],
  ['ci'],
  ['needle'],
  ['café'],
  ['größe'],
  ['東京'],
  ['c++'],
  ['no such words anywhere'],
  ['test', { prefix: 'daily/' }],
  ['test', { limit: 1, snippets: 0 }],
  ['test', { snippets: 10, limit: 20 }],
  ['scoring'],
  // Inflections (stems): a plural, -ing, -ed and -ion forms against the words the documents hold.
  ['deploying rollbacks'],
  ['reviewing pulls'],
  ['fixes'],
  ['searches ranked'],
  [''],
];

/** Register the search-parity group. */
export function registerSearchGroups(h: ConformanceHarness): void {
  const { describe, expect } = h.options.runner;
  describe('search parity', () => {
    h.test('searchStore answers every query exactly as core’s reference scan does', async () => {
      await h.seed(SEARCH_PARITY_DOCUMENTS);
      const reference = createInMemoryStore({ initialDocuments: SEARCH_PARITY_DOCUMENTS });
      const engine = new SearchEngine();
      const cached = new SearchEngine();
      try {
        for (const [query, options] of SEARCH_PARITY_QUERIES) {
          const expected = await engine.searchNaive(reference, query, options);
          const label = `${JSON.stringify(query)} ${JSON.stringify(options ?? {})}`;
          expect(await searchStore(h.store(), query, options), `one-shot ${label}`).toEqual(expected);
          expect(await searchStore(h.store(), query, { ...options, engine: cached }), `cached ${label}`).toEqual(
            expected,
          );
        }
      } finally {
        await reference.close();
      }
    });
    h.test('results follow writes and deletes', async () => {
      await h.seed(SEARCH_PARITY_DOCUMENTS);
      const cached = new SearchEngine();
      expect((await searchStore(h.store(), 'needle', { engine: cached })).results).toHaveLength(1);
      await h.store().write([
        { kind: 'delete', path: 'knowledge/long.md' },
        { kind: 'put', path: 'knowledge/new.md', content: new TextEncoder().encode('a fresh needle\n') },
      ]);
      for (const engine of [cached, undefined]) {
        const { results } = await searchStore(h.store(), 'needle', engine === undefined ? {} : { engine });
        expect(results.map((hit) => hit.path)).toEqual(['knowledge/new.md']);
      }
    });
    const oversizedBytes = 520 * 1024;
    h.testIf(
      (store) => store.capabilities.maxDocumentBytes >= oversizedBytes,
      `the store keeps no document of ${oversizedBytes} bytes`,
      'names documents too large to search in skipped, as the reference scan does',
      async () => {
        const documents = {
          'MEMORY.md': '- the needle is here\n',
          'notes/huge.md': `${'needle in a huge file\n'.repeat(Math.ceil(oversizedBytes / 22))}`,
          'daily/huge.md': `${'another needle\n'.repeat(Math.ceil(oversizedBytes / 15))}`,
        };
        await h.seed(documents);
        const reference = createInMemoryStore({ initialDocuments: documents });
        try {
          for (const options of [{}, { prefix: 'notes/' }]) {
            const expected = await new SearchEngine().searchNaive(reference, 'needle', options);
            expect(expected.skipped?.length).toBeGreaterThan(0);
            expect(await searchStore(h.store(), 'needle', options)).toEqual(expected);
            expect(await searchStore(h.store(), 'needle', { ...options, engine: new SearchEngine() })).toEqual(
              expected,
            );
          }
        } finally {
          await reference.close();
        }
      },
    );
  });
}
