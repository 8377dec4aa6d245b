// Why: the access policy is enforced by the server, not left to the client: in read-only mode the
// tools that change memory are neither listed nor callable, and in disabled mode the server
// starts, offers nothing and says why.
import { createInMemoryStore, type MemoryMode } from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryMcpServer } from '../src/index.js';
import { call, connectStdio, errorText, makeWorkspace, ok, STORE_KINDS, type Workspace } from './helpers.js';

const REPO = 'acme/app';
const READ_TOOLS = [
  'memory.get_recent',
  'memory.hydrate',
  'memory.impact',
  'memory.list_rules',
  'memory.read_citation',
  'memory.search',
  'memory.search_by_path',
  'memory.stats',
  'memory.verify_citations',
];

describe.each(STORE_KINDS)('access modes on the %s store', (kind) => {
  let workspace: Workspace;
  beforeAll(async () => {
    workspace = makeWorkspace(kind);
    const writer = await connectStdio({ storeSpec: workspace.storeSpec, repo: REPO, citationReader: workspace.source });
    try {
      await ok(writer, 'memory.add', { file: 'PROJECT.md', section: 'Overview', text: 'A demo project' });
      await ok(writer, 'memory.store', {
        subject: 'Version',
        fact: 'API_VERSION lives in src/version.ts.',
        citations: [{ path: 'src/version.ts', line_start: 2, line_end: 2 }],
      });
    } finally {
      await writer.close();
    }
  });
  afterAll(() => workspace?.cleanup());

  it('read-only: write tools are not listed and are refused; reads work and record nothing', async () => {
    const client = await connectStdio({
      storeSpec: workspace.storeSpec,
      repo: REPO,
      mode: 'read-only',
      citationReader: workspace.source,
    });
    try {
      const { tools } = await client.listTools();
      const history = kind === 'git' ? ['memory.history', 'memory.read_at'] : [];
      expect(tools.map((tool) => tool.name).sort()).toEqual([...READ_TOOLS, ...history].sort());
      expect(client.getInstructions()).toContain('read-only');
      const refused = await call(client, 'memory.add', { file: 'PROJECT.md', section: 'Overview', text: 'sneaky' });
      expect(refused.isError).toBe(true);
      expect(errorText(refused)).toMatch(/memory\.add disabled/);
      const refusedStore = await call(client, 'memory.store', {
        subject: 'x',
        fact: 'y',
        citations: [{ path: 'src/version.ts', line_start: 1, line_end: 1 }],
      });
      expect(refusedStore.isError).toBe(true);
      const before = await ok(client, 'memory.stats');
      const recent = await ok(client, 'memory.get_recent');
      expect((recent.memories as unknown[]).length).toBe(1);
      expect(await ok(client, 'memory.stats')).toEqual(before);
      const found = await ok(client, 'memory.search', { query: 'demo' });
      expect((found.results as { path: string }[])[0]?.path).toBe('PROJECT.md');
      const hydrated = await ok(client, 'memory.hydrate', { description: 'Where does the API version live?' });
      expect(hydrated.markdown).toContain('API_VERSION lives in src/version.ts.');
      expect(await ok(client, 'memory.stats')).toEqual(before);
      const refusedEpisode = await call(client, 'memory.record_episode', { task_id: 't1', status: 'completed' });
      expect(refusedEpisode.isError).toBe(true);
      const page = await client.readResource({ uri: 'repomem://memory/PROJECT.md' });
      expect(JSON.stringify(page.contents)).not.toContain('sneaky');
    } finally {
      await client.close();
    }
  });

  it('disabled: the server starts, lists nothing and says why', async () => {
    const client = await connectStdio({ storeSpec: workspace.storeSpec, repo: REPO, mode: 'disabled' });
    try {
      expect(client.getInstructions()).toMatch(/disabled for acme\/app/);
      expect((await client.listTools()).tools).toEqual([]);
      expect((await client.listResources()).resources).toEqual([]);
      expect((await client.listPrompts()).prompts).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it.runIf(kind === 'sqlite')('a server refuses to start on a bad repository or mode', async () => {
    const store = createInMemoryStore();
    await expect(createMemoryMcpServer({ store, repo: 'not a repo' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    const mode = 'sometimes' as MemoryMode;
    await expect(createMemoryMcpServer({ store, repo: REPO, mode })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
