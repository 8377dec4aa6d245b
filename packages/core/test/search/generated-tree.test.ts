// Why: the deterministic corpus generator feeds search tests and benchmarks; it must give the
// same tree for the same seed, look like a Sepo memory tree, and searching it (indexed, naive or
// one-shot) must give the same, sensible answers. The same tree written to disk and searched
// through the directory store is checked in @repomem/store-fs.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SearchEngine } from '../../src/search/engine.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';
import { generateMemoryCorpus, writeCorpusToDirectory } from '../../src/testing/corpus.js';

const files = generateMemoryCorpus({ seed: 7, jsonFiles: 300, dailyDays: 10 });
const byPath = new Map(files.map((file) => [file.path, file.content]));
const QUERIES = [
  'orchestrator review',
  'memory',
  'fix cursor for scheduled runs',
  'zeppelin',
  'pull 12',
  'tests',
  'c++',
];

describe('generateMemoryCorpus', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    expect(generateMemoryCorpus({ seed: 7, jsonFiles: 300, dailyDays: 10 })).toEqual(files);
    expect(generateMemoryCorpus({ seed: 8, jsonFiles: 300, dailyDays: 10 })).not.toEqual(files);
  });

  it('lays out a Sepo memory tree with mirror files shaped like gh --json dumps', () => {
    expect(files).toHaveLength(5 + 10 + 300);
    for (const name of [
      'README.md',
      'MEMORY.md',
      'PROJECT.md',
      'daily/.gitkeep',
      'github/.gitkeep',
      'daily/2026-03-01.md',
    ]) {
      expect(byPath.has(name)).toBe(true);
    }
    expect(byPath.get('MEMORY.md')).toMatch(/^# Memory\n\n## Durable\n- /);
    expect(byPath.get('daily/2026-03-10.md')).toMatch(/^# Daily log for 2026-03-10\n\n## Activity\n- /);
    const mirrors = files.filter((file) => file.path.startsWith('github/acme/rocket/'));
    expect(mirrors).toHaveLength(300);
    const kinds = new Set(mirrors.map((file) => /\/(issue|pull|discussion)-\d+\.json$/.exec(file.path)?.[1]));
    expect(kinds).toEqual(new Set(['issue', 'pull', 'discussion']));
    for (const file of mirrors) {
      const record = JSON.parse(file.content) as Record<string, unknown>;
      expect(record).toMatchObject({ title: expect.any(String), body: expect.any(String), url: expect.any(String) });
      expect((record.author as { login: string }).login).toEqual(expect.any(String));
      if (!file.path.includes('discussion-')) {
        expect(record.state).toMatch(/^(OPEN|CLOSED|MERGED)$/);
        expect(Array.isArray(record.labels)).toBe(true);
      }
    }
  });

  it('rejects bad options with a clear error', () => {
    expect(() => generateMemoryCorpus({ seed: 1, jsonFiles: -1 })).toThrow(/jsonFiles must be an integer/);
    expect(() => generateMemoryCorpus({ seed: 1, jsonFiles: 1, startDate: '2026-13-45x' })).toThrow(/startDate/);
  });
});

describe('search over a generated tree', () => {
  const engine = new SearchEngine();
  const documents = files.map((file) => ({ path: file.path, content: file.content }));

  it('hits some but not all documents for common vocabulary', () => {
    const response = engine.searchDocuments(documents, 'orchestrator', { limit: 1000 });
    expect(response.results.length).toBeGreaterThan(5);
    expect(response.results.length).toBeLessThan(files.length);
  });

  it('finds a mirror file by its title and number', () => {
    for (const number of [3, 101, 250]) {
      const file = files.find((candidate) => candidate.path.endsWith(`-${number}.json`));
      const title = (JSON.parse(file?.content ?? '{}') as { title: string }).title;
      const response = engine.searchDocuments(documents, `${title} ${number}`);
      expect(response.results[0]?.path).toBe(file?.path);
      expect(response.results[0]?.snippets.some((snippet) => snippet.field === 'title')).toBe(true);
    }
  });

  it('gives identical answers indexed, naive, one-shot and over plain documents', async () => {
    const store = createInMemoryStore({ initialDocuments: Object.fromEntries(byPath) });
    for (const query of QUERIES) {
      for (const options of [{ limit: 7 }, { limit: 3, prefix: 'daily/' }]) {
        const indexed = await engine.search(store, query, options);
        expect(indexed).toEqual(await engine.searchNaive(store, query, options));
        expect(indexed).toEqual(await engine.searchOnce(store, query, options));
        expect(indexed).toEqual(engine.searchDocuments(documents, query, options));
      }
    }
  });

  it('writes every file under the target directory, byte for byte', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'repomem-search-corpus-'));
    try {
      await writeCorpusToDirectory(directory, files);
      for (const file of files) {
        expect(await readFile(path.join(directory, ...file.path.split('/')), 'utf8'), file.path).toBe(file.content);
      }
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('refuses to write outside the target directory', async () => {
    await expect(writeCorpusToDirectory(tmpdir(), [{ path: '../escape.md', content: 'x' }])).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
  });
});
