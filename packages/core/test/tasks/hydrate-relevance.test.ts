// Why: hydration shares its budget by relevance across kinds, so the rules that make that safe are
// pinned here: a memory matching nothing never displaces a relevant one of another kind, the
// files a task names lift memories scoped to them, inflected words meet, and a semantic scorer
// brings in a paraphrase, while its failure degrades to words alone with a warning.
import { describe, expect, it } from 'vitest';
import {
  createInMemoryStore,
  createSemanticIndex,
  type Embedder,
  hydrate,
  RepomemError,
  recordLearnings,
  setPreference,
  writeEpisode,
} from '../../src/index.js';
import { freshBackend, minuteClock, REPO } from './support.js';

/** An embedder whose only "meaning" is that flaky and intermittent tests are one thing. */
function synonyms(fail = false): Embedder {
  return {
    id: 'test:flaky-4',
    dimensions: 4,
    async embed(texts) {
      if (fail) throw new RepomemError('PACKAGE_MISSING', 'model not installed');
      return texts.map((text) => {
        const vector = new Float32Array([0, 0, 0, 0.05]);
        for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
          if (word === 'flaky' || word === 'intermittent' || word === 'intermittently') vector[0] = 1;
        }
        return vector;
      });
    },
  };
}

async function seeded() {
  const backend = freshBackend();
  const now = minuteClock();
  const learn = (text: string) => recordLearnings({ backend, repo: REPO, now, learnings: text });
  await learn('**[Login tests (tests/e2e/)]:** The login specs fail intermittently when the mock server starts late.');
  await learn('**[Caching (packages/api/src/cache/)]:** Responses are cached per account for 60 seconds.');
  for (let index = 0; index < 6; index += 1) {
    await learn(
      `**[Unrelated ${index}]:** The build of module number ${index} uses esbuild with ${'many words '.repeat(8)}`,
    );
  }
  await writeEpisode({
    backend,
    repo: REPO,
    now,
    episode: { task_id: 'task-9', status: 'completed', description: 'Caches the pricing responses per account' },
  });
  await setPreference({ backend, repo: REPO, user: 'bob', preference: 'I prefer small, atomic PRs.', now });
  return backend;
}

describe('hydrate relevance', () => {
  it('offers only what matches the task; inflections meet; the user preference comes right after the rules', async () => {
    const backend = await seeded();
    const result = await hydrate({ backend, repo: REPO, task: { description: 'caching of responses', user: 'bob' } });
    expect(result.context.knowledge.map((entry) => entry.subject)).toEqual(['Caching']);
    expect(result.context.episodes.map((entry) => entry.id)).toEqual(['task-9']);
    expect(result.context.preferences).toHaveLength(1);
    const floor = result.dropped.filter((item) => item.reason === 'below-floor');
    expect(floor.map((item) => item.source).sort()).toEqual(Array(7).fill('knowledge'));
    const order = result.receipt.items.filter((item) => item.included).map((item) => item.source);
    expect(order[0]).toBe('preferences');
  });

  it('a tight budget drops the lower-scoring item as outranked, not the relevant one of another kind', async () => {
    const backend = await seeded();
    const full = await hydrate({ backend, repo: REPO, task: { description: 'cached responses per account' } });
    const costs = full.receipt.items.filter((item) => item.included).map((item) => item.tokens);
    const tight = await hydrate({
      backend,
      repo: REPO,
      task: { description: 'cached responses per account' },
      budgetTokens: full.receipt.used_tokens - Math.min(...costs),
    });
    expect(tight.dropped.some((item) => item.reason === 'outranked')).toBe(true);
    expect(tight.dropped.some((item) => item.reason === 'below-floor')).toBe(true);
    expect(tight.context.knowledge.length + tight.context.episodes.length).toBe(1);
  });

  it('a file the task names lifts the memories scoped to its directory', async () => {
    const backend = await seeded();
    const result = await hydrate({
      backend,
      repo: REPO,
      task: { description: 'Fix the bug in this file', files: ['tests/e2e/login.spec.ts'] },
    });
    expect(result.context.knowledge.map((entry) => entry.subject)).toEqual(['Login tests']);
  });

  it('a semantic scorer brings in a paraphrase; its failure degrades to words alone with a warning', async () => {
    const backend = await seeded();
    const task = { description: 'the flaky sign-in checks' };
    const words = await hydrate({ backend, repo: REPO, task });
    expect(words.context.knowledge).toEqual([]);
    const store = createInMemoryStore();
    const semantic = createSemanticIndex({ store, embedder: synonyms() });
    const meaning = await hydrate({ backend, repo: REPO, task, semantic });
    expect(meaning.status).toBe('ok');
    expect(meaning.context.knowledge.map((entry) => entry.subject)).toEqual(['Login tests']);
    const broken = createSemanticIndex({ store: createInMemoryStore(), embedder: synonyms(true) });
    const degraded = await hydrate({ backend, repo: REPO, task, semantic: broken });
    expect(degraded.context.knowledge).toEqual([]);
    expect([...degraded.warnings, ...degraded.errors].map((failure) => failure.source)).toEqual(['semantic']);
  });
});

describe('hydrate preferences', () => {
  it('gives the user’s three most relevant preferences; more compete by relevance like any memory', async () => {
    const backend = freshBackend();
    const now = minuteClock();
    const preferences = [
      'I prefer small, atomic PRs.',
      'Use conventional commits.',
      'Write a test plan in the PR description.',
      'Keep UI changes behind a feature flag.',
      'Cache keys always include the account id.',
    ];
    for (const [index, preference] of preferences.entries()) {
      await setPreference({ backend, repo: REPO, user: 'bob', preference, topic: `note-${index}`, now });
    }
    const result = await hydrate({ backend, repo: REPO, task: { description: 'cache the account page', user: 'bob' } });
    const given = result.context.preferences.map((entry) => entry.preference);
    expect(given).toHaveLength(3);
    expect(given).toContain('Cache keys always include the account id.');
    expect(result.dropped.filter((item) => item.source === 'preferences').map((item) => item.reason)).toEqual([
      'below-floor',
      'below-floor',
    ]);
  });
});
