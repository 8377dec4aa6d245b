// Why: the MCP tools read in branch scope (issue 26) through the official client and a spawned
// server: a memory learned on `feature` is served by memory.get_recent, memory.search_by_path and
// memory.hydrate while the clone is on `feature`, left out on `main`, and served on `main` when
// the call names `ref: "feature"`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { defaultStoreRegistry } from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio, git, makeWorkspace, ok, type Workspace } from './helpers.js';

const REPO = 'acme/app';

describe('MCP tools in branch scope', () => {
  let workspace: Workspace;
  let client: Client;
  let id: string;
  beforeAll(async () => {
    workspace = makeWorkspace('sqlite');
    git(workspace.code, 'checkout', '-q', '-b', 'feature');
    mkdirSync(join(workspace.code, 'src'), { recursive: true });
    writeFileSync(join(workspace.code, 'src', 'net.ts'), 'export const TIMEOUT_MS = 500;\n');
    git(workspace.code, 'add', '.');
    git(workspace.code, 'commit', '-q', '-m', 'network client');
    client = await connectStdio({ storeSpec: workspace.storeSpec, repo: REPO, citationReader: workspace.source });
    const stored = await ok(client, 'memory.store', {
      subject: 'Network timeout',
      fact: 'The network client times out after 500 ms.',
      citations: [{ path: 'src/net.ts', line_start: 1, line_end: 1 }],
    });
    id = (stored.memory as { id: string }).id;
    // Record where it was learned, as item 1 of issue 26 does (the branch and commit of HEAD).
    const backend = await defaultStoreRegistry.openVerifiedBackend(workspace.storeSpec, { repo: REPO });
    try {
      const memory = await backend.get(REPO, id);
      if (memory === undefined) throw new Error('stored memory not found');
      const learned_on = { ref: 'feature', commit: git(workspace.code, 'rev-parse', 'HEAD') };
      const record = { ...memory, learned_on, revision: memory.revision + 1 };
      expect((await backend.apply([{ record, expectedRevision: memory.revision }], [])).ok).toBe(true);
    } finally {
      await backend.close();
    }
  });
  afterAll(async () => {
    await client?.close();
    workspace?.cleanup();
  });

  const ids = (result: Record<string, unknown>) => (result.memories as { id: string }[]).map((memory) => memory.id);

  it('serves the memory on its branch and leaves it out on main unless the call names the branch', async () => {
    expect(ids(await ok(client, 'memory.get_recent'))).toEqual([id]);
    git(workspace.code, 'checkout', '-q', 'main');
    expect(ids(await ok(client, 'memory.get_recent'))).toEqual([]);
    expect(ids(await ok(client, 'memory.search_by_path', { path: 'src/net.ts' }))).toEqual([]);
    const onMain = await ok(client, 'memory.hydrate', { description: 'network client timeout' });
    expect((onMain.context as { verified: unknown[] }).verified).toEqual([]);
    expect(ids(await ok(client, 'memory.get_recent', { ref: 'feature' }))).toEqual([id]);
    expect(ids(await ok(client, 'memory.search_by_path', { path: 'src/net.ts', ref: 'feature' }))).toEqual([id]);
    // Still active: main's code never invalidated it.
    expect((await ok(client, 'memory.stats')).by_status).toMatchObject({ active: 1, invalid: 0 });
  });
});
