// Why: the tools must work when a model drives them through the AI SDK, on real stores: the AI
// SDK's test model scripts the calls, `generateText` validates each input against the tool's zod
// schema and executes it, and the results (and the store afterwards) are checked. Runs on core's
// in-memory store and on SQLite opened from a spec; citations are read from a real working tree.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryStore, type MemoryStore, openStore } from '@repomem/core';
import { generateText, isStepCount } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RepomemTools, repomemTools } from '../src/index.js';
import { type ScriptedCall, scriptedModel } from './scripted-model.js';

const MEMORY = '# Memory\n\n## Conventions\n\n- Release from main\n';

let scratch: string;
let worktree: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'repomem-ai-sdk-'));
  worktree = join(scratch, 'code');
  mkdirSync(worktree);
  writeFileSync(join(worktree, 'package.json'), '{\n  "name": "app",\n  "engines": { "node": ">=22.16" }\n}\n');
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

async function seed(store: MemoryStore): Promise<void> {
  await store.write([
    { kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode(MEMORY), expectedVersion: null },
  ]);
}

/** Run a scripted conversation; the tool results of every step, in order. */
async function drive(memory: RepomemTools, steps: readonly (readonly ScriptedCall[])[]) {
  const result = await generateText({
    model: scriptedModel(steps),
    tools: memory.tools,
    prompt: 'Work on the task, using memory.',
    stopWhen: isStepCount(steps.length + 1),
  });
  expect(result.text).toBe('done');
  return result.steps.flatMap((step) =>
    step.content
      .filter((part) => part.type === 'tool-result' || part.type === 'tool-error')
      .map((part) =>
        part.type === 'tool-result'
          ? { tool: part.toolName, output: part.output as Record<string, unknown> }
          : { tool: part.toolName, error: String(part.error) },
      ),
  );
}

const KINDS = [
  {
    name: 'memory',
    async open(): Promise<{ memory: RepomemTools; store: MemoryStore; close(): Promise<void> }> {
      const store = createInMemoryStore();
      await seed(store);
      const memory = await repomemTools({ store, repo: 'acme/app', citationReader: `dir:${worktree}` });
      return {
        memory,
        store,
        async close() {
          await memory.close();
          await store.close();
        },
      };
    },
  },
  {
    name: 'sqlite (spec)',
    async open(): Promise<{ memory: RepomemTools; store: MemoryStore; close(): Promise<void> }> {
      const seeded = await openStore('sqlite:memory.db', { cwd: scratch, repo: 'acme/app' });
      await seed(seeded);
      await seeded.close();
      const memory = await repomemTools({
        spec: 'sqlite:memory.db',
        cwd: scratch,
        repo: 'acme/app',
        citationReader: `dir:${worktree}`,
      });
      const store = memory.context.store as MemoryStore;
      return { memory, store, close: () => memory.close() };
    },
  },
];

describe.each(KINDS)('repomemTools on $name, driven by the AI SDK test model', (kind) => {
  it('lists every tool, and a model edits, searches, remembers with citations, hydrates and records', async () => {
    const { memory, store, close } = await kind.open();
    try {
      expect(Object.keys(memory.tools).sort()).toEqual([
        'memory_add',
        'memory_daily_append',
        'memory_hydrate',
        'memory_recall',
        'memory_record_episode',
        'memory_remove',
        'memory_replace',
        'memory_search',
        'memory_store',
      ]);
      const results = await drive(memory, [
        [
          {
            toolName: 'memory_add',
            input: { file: 'MEMORY.md', section: 'Conventions', text: 'Run pnpm test before pushing' },
          },
        ],
        [
          { toolName: 'memory_search', input: { query: 'pnpm test' } },
          { toolName: 'memory_daily_append', input: { text: 'Looked at the release flow', date: '2026-05-01' } },
        ],
        [
          {
            toolName: 'memory_replace',
            input: {
              file: 'MEMORY.md',
              section: 'Conventions',
              match: 'pnpm test',
              with: 'Run pnpm check before pushing',
            },
          },
        ],
        [
          {
            toolName: 'memory_remove',
            input: { file: 'MEMORY.md', section: 'Conventions', match: 'Release from main' },
          },
        ],
        [
          {
            toolName: 'memory_store',
            input: {
              subject: 'Node version',
              fact: 'The app needs Node 22.16 or later',
              citations: [{ path: 'package.json', line_start: 3, line_end: 3 }],
            },
          },
        ],
        [{ toolName: 'memory_recall', input: {} }],
        [
          {
            toolName: 'memory_hydrate',
            input: { description: 'upgrade the Node version of the app', task_id: 'task-1' },
          },
        ],
        [
          {
            toolName: 'memory_record_episode',
            input: { task_id: 'task-1', status: 'completed', approach: 'bumped engines' },
          },
        ],
      ]);
      expect(results.map((entry) => entry.tool)).toEqual([
        'memory_add',
        'memory_search',
        'memory_daily_append',
        'memory_replace',
        'memory_remove',
        'memory_store',
        'memory_recall',
        'memory_hydrate',
        'memory_record_episode',
      ]);
      expect(results.every((entry) => !('error' in entry))).toBe(true);
      const [added, searched, daily, replaced, removed, stored, recalled, hydrated, episode] = results.map(
        (entry) => entry.output as Record<string, unknown>,
      );
      expect(added).toMatchObject({ kind: 'added', path: 'MEMORY.md', written: true });
      expect(((searched?.results ?? []) as { path: string }[]).map((hit) => hit.path)).toEqual(['MEMORY.md']);
      expect(daily).toMatchObject({ kind: 'added', path: 'daily/2026-05-01.md' });
      expect(replaced).toMatchObject({ kind: 'replaced' });
      expect(removed).toMatchObject({ kind: 'removed' });
      expect(stored).toMatchObject({ kind: 'stored' });
      expect(((recalled?.memories ?? []) as { fact: string }[]).map((entry) => entry.fact)).toEqual([
        'The app needs Node 22.16 or later',
      ]);
      expect(hydrated?.markdown).toContain('The app needs Node 22.16 or later');
      expect(episode).toMatchObject({ kind: 'written' });
      const text = new TextDecoder().decode((await store.get('MEMORY.md'))?.content);
      expect(text).toBe('# Memory\n\n## Conventions\n\n- Run pnpm check before pushing\n');
    } finally {
      await close();
    }
  });

  it('read-only mode lists no writing tool and changes nothing', async () => {
    const { memory: writable, store, close } = await kind.open();
    const memory = await repomemTools({
      store,
      repo: 'acme/app',
      mode: 'read-only',
      citationReader: `dir:${worktree}`,
    });
    try {
      expect(Object.keys(memory.tools).sort()).toEqual(['memory_hydrate', 'memory_recall', 'memory_search']);
      const before = await store.revision();
      const results = await drive(memory, [
        [{ toolName: 'memory_search', input: { query: 'release' } }],
        [{ toolName: 'memory_add', input: { file: 'MEMORY.md', section: 'Conventions', text: 'sneaky' } }],
      ]);
      expect(results[0]).toMatchObject({ tool: 'memory_search' });
      expect(results[1]).toMatchObject({ tool: 'memory_add', error: expect.stringMatching(/memory_add/) });
      expect(await store.revision()).toBe(before);
    } finally {
      await memory.close();
      await writable.close();
      await close();
    }
  });

  it('refuses input that fails the zod schema before anything runs', async () => {
    const { memory, store, close } = await kind.open();
    try {
      const before = await store.revision();
      const results = await drive(memory, [
        [{ toolName: 'memory_add', input: { file: 'OTHER.md', section: 'Conventions', text: 'x' } }],
      ]);
      expect(results).toEqual([{ tool: 'memory_add', error: expect.stringMatching(/file|Invalid/i) }]);
      expect(await store.revision()).toBe(before);
    } finally {
      await close();
    }
  });
});

describe('repomemTools options', () => {
  it('refuses a bad repository, a bad mode, and both store and spec', async () => {
    const store = createInMemoryStore();
    await expect(repomemTools({ store, repo: 'not a slug' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(repomemTools({ store, repo: 'acme/app', mode: 'off' as never })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(repomemTools({ store, spec: 'sqlite:x.db', repo: 'acme/app' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await store.close();
  });
});
