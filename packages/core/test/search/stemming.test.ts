// Why: inflections must match on every search path (plural against singular, a verb against its
// noun, -ing/-ed/-ion forms) while exact words and the whole phrase still rank first; and the
// stem's needle, which every prefilter and store index narrows by, must start every word that
// has the stem, or a path would silently miss documents.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/index.js';
import { type SearchableDocument, SearchEngine } from '../../src/search/engine.js';
import { searchStore } from '../../src/search/search-store.js';
import { stemNeedle, stemWord, termStem } from '../../src/search/stemming.js';

const engine = new SearchEngine();
const paths = (documents: SearchableDocument[], query: string) =>
  engine.searchDocuments(documents, query, { limit: 10 }).results.map((hit) => hit.path);

const FIXTURES = join(import.meta.dirname, '..', '..', '..', '..', '..', 'shared', 'fixtures');
const SUFFIXES = ['', 's', 'es', 'ies', 'ing', 'ed', 'ion', 'ation', 'ization', 'ational', 'ability', 'ibility'];
const MORE_SUFFIXES = ['ly', 'ely', 'bly', 'ness', 'fulness', 'iveness', 'ity', 'icate', 'ical', 'ency', 'ancy'];
const ALL_SUFFIXES = [...SUFFIXES, ...MORE_SUFFIXES, 'izer', 'alism', 'ously', 'ement', 'ible', 'ying', 'logies'];

function vocabulary(): Set<string> {
  const words = new Set<string>(['policy', 'policies', 'feasibility', 'sensibility', 'run', 'running', 'conflated']);
  const walk = (directory: string): void => {
    for (const name of readdirSync(directory)) {
      const path = join(directory, name);
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else if (stat.size < 1_000_000) {
        for (const word of readFileSync(path, 'utf8')
          .toLowerCase()
          .match(/[a-z]+/g) ?? [])
          words.add(word);
      }
    }
  };
  try {
    walk(FIXTURES);
  } catch {
    // no fixture tree: the built-in words and their suffixed forms still run
  }
  const roots = [...words].filter((word) => word.length >= 3 && word.length <= 9).slice(0, 1500);
  for (const root of roots) for (const suffix of ALL_SUFFIXES) words.add(root + suffix);
  return words;
}

describe('stemming', () => {
  it('stems inflections together and leaves other words alone', () => {
    expect(stemWord('policies')).toBe(stemWord('policy'));
    expect(stemWord('caching')).toBe(stemWord('cache'));
    expect(stemWord('migrated')).toBe(stemWord('migrate'));
    expect(stemWord('connection')).toBe(stemWord('connect'));
    expect(stemWord('2024')).toBe('2024');
    expect(stemWord('café')).toBe('café');
    expect(termStem('uses')).toBeUndefined(); // stem `us`: too short to narrow by
    expect(termStem('policy')).toEqual({ stem: 'polici', needle: 'polic' });
  });

  it('every word starts with the needle of its stem (a large vocabulary)', () => {
    const failures: string[] = [];
    for (const word of vocabulary()) {
      if (word.length < 3) continue;
      if (!word.startsWith(stemNeedle(stemWord(word)))) failures.push(word);
    }
    expect(failures).toEqual([]);
  });

  it('matches plurals, -ing, -ed and -ion forms, exact words first', () => {
    const documents = [
      { path: 'a.md', content: 'The branch policies are strict.' },
      { path: 'b.md', content: 'The branch policy is strict.' },
      { path: 'c.md', content: 'The police arrived.' },
    ];
    expect(paths(documents, 'policy')).toEqual(['b.md', 'a.md']);
    expect(paths(documents, 'policies')).toEqual(['a.md', 'b.md']);
    const verbs = [
      { path: 'cache.md', content: 'Caching the build saves minutes.' },
      { path: 'migrate.md', content: 'The migration ran twice.' },
      { path: 'merged.md', content: 'It merged cleanly.' },
    ];
    expect(paths(verbs, 'cache')).toEqual(['cache.md']);
    expect(paths(verbs, 'migrated')).toEqual(['migrate.md']);
    expect(paths(verbs, 'merging')).toEqual(['merged.md']);
  });

  it('ranks the exact phrase above the same words inflected', () => {
    const documents = [
      { path: 'inflected.md', content: 'Review the caches of forks.' },
      { path: 'phrase.md', content: 'Review the fork cache.' },
    ];
    expect(paths(documents, 'fork cache')).toEqual(['phrase.md', 'inflected.md']);
  });

  it('answers inflections alike on every path (index, naive, one-shot, candidates)', async () => {
    const initialDocuments: Record<string, string> = {
      'notes/policies.md': '# Policies\n- Branch policies forbid force pushes.\n- Reviews required.',
      'notes/review.md': '- Reviewed by two maintainers.\n- Reviewing takes a day.',
      'github/issues/1.json': JSON.stringify({ title: 'Caching the workflow', body: 'Cached steps were stale.' }),
      'MEMORY.md': '- The cache policy: never cache secrets.\n- Migrations run in order.',
    };
    const store = createInMemoryStore({ initialDocuments });
    for (const query of ['policy', 'reviews', 'cache workflow', 'migration order', 'cached steps']) {
      const naive = await engine.searchNaive(store, query);
      expect(naive.results.length).toBeGreaterThan(0);
      expect(await engine.search(store, query)).toEqual(naive);
      expect(await new SearchEngine().searchOnce(store, query)).toEqual(naive);
      expect(await searchStore(store, query)).toEqual(naive);
    }
  });
});
