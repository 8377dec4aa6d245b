// Why: vectors are kept with the memory on every store as documents under `.repomem/vectors/`,
// so every store must round-trip them: binary shards, manifests, compare-and-swap merges between
// two indexers, and nothing of it leaking into search. This group runs the semantic index with
// the deterministic test embedder on the store under test (no model, fast) and checks what a
// fresh runner, an edit, a deletion and a model change do.
import { createTestEmbedder, type Embedder } from '../retrieval/embedder.js';
import { createSemanticIndex } from '../retrieval/semantic-index.js';
import { VECTOR_INDEX_PREFIX } from '../retrieval/vector-store.js';
import { searchStore } from '../search/search-store.js';
import type { MemoryStore } from '../store/contract.js';
import { expectRepomemErrorCode, registerPerTestSubject } from './conformance-lifecycle.js';
import type { ConformanceRunner } from './conformance-types.js';

/** Options of {@link runVectorIndexConformance}. */
export interface VectorIndexConformanceOptions<S extends MemoryStore> {
  /** Suite name (default `vector index conformance`). */
  readonly name?: string;
  /** Test runner functions (vitest's `describe`, `it`, `expect`, `beforeEach`, `afterEach`). */
  readonly runner: ConformanceRunner;
  /** A fresh, empty, writable store for every test. */
  createStore(): Promise<S>;
  /** Clean up after a test (the suite has already called `close()`). */
  teardown?(store: S): Promise<void>;
  /** Per-test timeout in milliseconds (default 30,000). */
  readonly timeoutMs?: number;
}

const encoder = new TextEncoder();

const DOCUMENTS: Readonly<Record<string, string>> = {
  'MEMORY.md':
    '# Memory\n\n## Testing\n\n- vitest runs flaky on CI when fake timers leak\n- snapshot files live beside tests\n\n## Build\n\n- pnpm builds packages with turbo\n',
  'daily/2026-05-01.md':
    '# 2026-05-01\n\nThe release pipeline publishes to npm with provenance.\n\nDocker images are built nightly.\n',
  'github/acme/app/issue-7.json': JSON.stringify({
    title: 'Login page crashes on Safari',
    body: 'The session cookie is missing.',
    comments: [{ body: 'Reproduced with Safari 17 and private browsing' }],
  }),
};

/** Count embedded texts, so the suite can check that nothing is embedded twice. */
function countingEmbedder(inner: Embedder): Embedder & { texts: number } {
  const counter = {
    id: inner.id,
    dimensions: inner.dimensions,
    texts: 0,
    async embed(texts: readonly string[], options?: { signal?: AbortSignal }) {
      counter.texts += texts.length;
      return inner.embed(texts, options);
    },
  };
  return counter;
}

async function seed(store: MemoryStore, documents: Readonly<Record<string, string>>): Promise<void> {
  const result = await store.write(
    Object.entries(documents).map(([path, text]) => ({ kind: 'put' as const, path, content: encoder.encode(text) })),
  );
  if (result.status !== 'committed') throw new Error('conformance: seeding the store conflicted');
}

/**
 * Register the vector-index conformance group: refresh embeds every chunk once and a second
 * index over the same store (a fresh CI runner) embeds nothing; an edit embeds only the edited
 * chunk and a deletion drops its vectors; search ranks by the best chunk and honours `prefix`;
 * `scoreTexts` caches by content; the stored vectors never appear in search results; an index
 * folder of another dimension is refused with `EMBEDDER_MISMATCH`; two indexers at once lose
 * nothing.
 */
export function runVectorIndexConformance<S extends MemoryStore>(options: VectorIndexConformanceOptions<S>): void {
  const { runner } = options;
  const { expect } = runner;
  const timeout = options.timeoutMs ?? 30_000;
  runner.describe(options.name ?? 'vector index conformance', () => {
    const store = registerPerTestSubject(runner, options.createStore, options.teardown, 'store');

    runner.it(
      'refresh embeds each chunk once; a second index over the same store embeds nothing',
      async () => {
        await seed(store(), DOCUMENTS);
        const embedder = countingEmbedder(createTestEmbedder());
        const first = await createSemanticIndex({ store: store(), embedder }).refresh();
        expect(first.embedded).toBeGreaterThan(5);
        expect(first.reused).toBe(0);
        expect(embedder.texts).toBe(first.embedded);
        const fresh = countingEmbedder(createTestEmbedder());
        const again = createSemanticIndex({ store: store(), embedder: fresh });
        expect(await again.refresh()).toEqual({ embedded: 0, reused: first.embedded, removed: 0 });
        expect(fresh.texts).toBe(0);
        expect(await again.status()).toEqual({
          embedderId: fresh.id,
          dimensions: fresh.dimensions,
          chunks: first.embedded,
          missing: 0,
        });
      },
      timeout,
    );

    runner.it(
      'an edit embeds only the changed chunk; a deleted document drops its vectors',
      async () => {
        await seed(store(), DOCUMENTS);
        const embedder = countingEmbedder(createTestEmbedder());
        const index = createSemanticIndex({ store: store(), embedder });
        await index.refresh();
        const before = embedder.texts;
        await seed(store(), {
          'MEMORY.md': `${DOCUMENTS['MEMORY.md']}- lint with biome before commit\n`,
        });
        expect(await index.status()).toEqual({
          embedderId: embedder.id,
          dimensions: embedder.dimensions,
          chunks: before + 1,
          missing: 1,
        });
        const edited = await index.refresh();
        expect(edited.embedded).toBe(1);
        expect(embedder.texts).toBe(before + 1);
        const removed = await store().write([{ kind: 'delete', path: 'daily/2026-05-01.md' }]);
        expect(removed.status).toBe('committed');
        const dropped = await index.refresh();
        expect(dropped.embedded).toBe(0);
        expect(dropped.removed).toBe(2);
        expect((await index.status()).missing).toBe(0);
      },
      timeout,
    );

    runner.it(
      'search ranks documents by their best chunk, honours prefix and never returns vectors',
      async () => {
        await seed(store(), DOCUMENTS);
        const index = createSemanticIndex({ store: store(), embedder: createTestEmbedder() });
        expect(await index.searchDocuments('vitest flaky fake timers', { limit: 3 })).toEqual([]);
        await index.refresh();
        const hits = await index.searchDocuments('vitest flaky fake timers', { limit: 3 });
        expect(hits[0]?.path).toBe('MEMORY.md');
        expect(hits[0]?.chunk).toBe('Memory > Testing\n- vitest runs flaky on CI when fake timers leak');
        expect(hits.every((hit) => !hit.path.startsWith(VECTOR_INDEX_PREFIX))).toBe(true);
        const safari = await index.searchDocuments('Safari private browsing', { limit: 1, prefix: 'github/' });
        expect(safari).toEqual([
          {
            path: 'github/acme/app/issue-7.json',
            score: safari[0]?.score,
            chunk: 'Login page crashes on Safari\nReproduced with Safari 17 and private browsing',
          },
        ]);
        const lexical = await searchStore(store(), 'vectors manifest format embedder', { limit: 50 });
        expect(lexical.results.filter((result) => result.path.startsWith('.repomem/'))).toEqual([]);
        const listed = await store().list(VECTOR_INDEX_PREFIX);
        expect(listed.length).toBeGreaterThan(2);
      },
      timeout,
    );

    runner.it(
      'scoreTexts embeds a text once and keeps its vector with the memory',
      async () => {
        const embedder = countingEmbedder(createTestEmbedder());
        const index = createSemanticIndex({ store: store(), embedder });
        const items = [
          { id: 'a', text: 'Prefer pnpm over npm in this repository' },
          { id: 'b', text: 'Release notes are written by hand' },
        ];
        const scores = await index.scoreTexts('use pnpm', items);
        expect((scores.get('a') as number) > (scores.get('b') as number)).toBe(true);
        expect(embedder.texts).toBe(3);
        const other = countingEmbedder(createTestEmbedder());
        const again = await createSemanticIndex({ store: store(), embedder: other }).scoreTexts('use pnpm', items);
        expect(again).toEqual(scores);
        expect(other.texts).toBe(1);
      },
      timeout,
    );

    runner.it(
      'a model with another dimension under the same id is refused; another id re-embeds',
      async () => {
        await seed(store(), DOCUMENTS);
        await createSemanticIndex({ store: store(), embedder: createTestEmbedder({ dimensions: 32 }) }).refresh();
        const impostor: Embedder = {
          ...createTestEmbedder({ dimensions: 48 }),
          id: createTestEmbedder({ dimensions: 32 }).id,
        };
        await expectRepomemErrorCode(
          expect,
          () => createSemanticIndex({ store: store(), embedder: impostor }).refresh(),
          'EMBEDDER_MISMATCH',
        );
        const other = countingEmbedder(createTestEmbedder({ dimensions: 48 }));
        const result = await createSemanticIndex({ store: store(), embedder: other }).refresh();
        expect(result.reused).toBe(0);
        expect(other.texts).toBe(result.embedded);
      },
      timeout,
    );

    runner.it(
      'two indexers refreshing at once keep every vector',
      async () => {
        await seed(store(), DOCUMENTS);
        const embedder = createTestEmbedder();
        const [left, right] = await Promise.all([
          createSemanticIndex({ store: store(), embedder, flushEvery: 1 }).refresh(),
          createSemanticIndex({ store: store(), embedder, flushEvery: 1 }).refresh(),
        ]);
        expect(left.embedded + left.reused).toBe(right.embedded + right.reused);
        expect((await createSemanticIndex({ store: store(), embedder }).status()).missing).toBe(0);
      },
      timeout,
    );
  });
}
