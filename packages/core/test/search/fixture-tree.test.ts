// Why: search behaviour on the real memory tree a Sepo agent wrote (Markdown plus flat
// `github/*.json` mirror files): sensible queries find the expected files, JSON snippets are
// readable field values, the index agrees with the naive scan, and edits are seen at once.
// The fixture's files are read into an in-memory store (the fixture is never written; the same
// tree searched through the directory store is checked in @repomem/store-fs), and the suite
// skips when it is absent.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchEngine } from '../../src/search/engine.js';
import type { MemoryStore } from '../../src/store/contract.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const fixtureTree = process.env.REPOMEM_FIXTURE_TREE ?? path.resolve(repoRoot, '../shared/fixtures/sepo-memory-tree');

/** Every regular file under `root`, by POSIX path relative to it. */
async function readTree(root: string): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    files[path.relative(root, absolute).split(path.sep).join('/')] = new Uint8Array(await readFile(absolute));
  }
  return files;
}

const fixtureNote = existsSync(fixtureTree) ? 'present' : `skipped: needs ${fixtureTree}`;

describe.skipIf(!existsSync(fixtureTree))(`search over the Sepo fixture tree (${fixtureNote})`, () => {
  let store: MemoryStore;
  const engine = new SearchEngine();
  const top = async (query: string, limit = 5) =>
    (await engine.search(store, query, { limit })).results.map((hit) => hit.path);

  beforeAll(async () => {
    store = createInMemoryStore({ initialDocuments: await readTree(fixtureTree) });
  });

  afterAll(async () => {
    await store?.close();
  });

  it('finds the discussion a topic came from', async () => {
    expect((await top('yolo mode'))[0]).toBe('github/discussion-153.json');
  });

  it('finds an issue by kind and number through the path', async () => {
    expect((await top('issue 87'))[0]).toBe('github/issue-87.json');
  });

  it('finds the stacked-PR threads', async () => {
    // Top 10: `stacked` now also finds the threads about `stacking`, which join these two.
    const paths = await top('stacked PRs base_pr', 10);
    expect(paths).toContain('github/issue-122.json');
    expect(paths).toContain('github/pull-56.json');
  });

  it('finds durable memory bullets among mirror files', async () => {
    expect(await top('AGENT_ACCESS_POLICY', 10)).toContain('MEMORY.md');
    const response = await engine.search(store, 'canonical docs', { limit: 20 });
    const memory = response.results.find((hit) => hit.path === 'MEMORY.md');
    expect(memory?.snippets[0]).toMatchObject({ text: '- Canonical docs live under `.agent/docs/`.' });
  });

  it('shows JSON matches as readable field values, never escaped JSON', async () => {
    const response = await engine.search(store, 'orchestrator handoff', { limit: 10, snippets: 5 });
    const jsonHits = response.results.filter((hit) => hit.path.endsWith('.json'));
    expect(jsonHits.length).toBeGreaterThan(0);
    for (const hit of jsonHits) {
      for (const snippet of hit.snippets) {
        expect(snippet.field).toMatch(/^[A-Za-z_$][\w$.[\]-]*$/);
        expect(snippet.text.startsWith(`${snippet.field}: `)).toBe(true);
        expect(snippet.text).not.toMatch(/\\n|\\"/);
        expect(snippet.text.length).toBeLessThanOrEqual(220);
      }
    }
    expect(
      jsonHits
        .flatMap((hit) => hit.snippets.map((snippet) => snippet.field))
        .some((field) => /comments/.test(field ?? '')),
    ).toBe(true);
  });

  it('ranks exactly like the naive scan, indexed and one-shot', async () => {
    for (const query of [
      'memory branch',
      'rubrics',
      'fix-pr handoff context',
      'review synthesis',
      '記憶',
      'self-approve',
      'issue 87',
      'the',
      'test tests testing',
      'c++',
    ]) {
      const naive = await engine.searchNaive(store, query, { limit: 8 });
      expect(await engine.search(store, query, { limit: 8 })).toEqual(naive);
      expect(await engine.searchOnce(store, query, { limit: 8 })).toEqual(naive);
    }
  });

  it('sees an edit on the next query and reads only the edited file', async () => {
    await engine.search(store, 'warmup');
    const before = engine.cacheStats(store)?.reads ?? 0;
    const entry = (await store.list('MEMORY.md'))[0];
    const current = await store.get('MEMORY.md');
    const text = `${new TextDecoder().decode(current?.content)}- Zanzibar quokka convention for fixture tests.\n`;
    const result = await store.write([
      { kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode(text), expectedVersion: entry?.version },
    ]);
    expect(result.status).toBe('committed');
    expect(await top('zanzibar quokka')).toEqual(['MEMORY.md']);
    expect(engine.cacheStats(store)?.reads).toBe(before + 1);
  });
});
