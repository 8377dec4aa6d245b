// Why: the MCP tools that write memories record where they were learned (issue 26 item 1), the
// same way the CLI and the library do: the clone's HEAD commit and current branch, read by the
// server's citation reader. Through the official client and a spawned server on a real clone.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectStdio, git, makeWorkspace, ok, type Workspace } from './helpers.js';

const REPO = 'acme/app';

describe('MCP writes record learned_on', () => {
  let workspace: Workspace;
  let client: Client;
  let head: string;
  beforeAll(async () => {
    workspace = makeWorkspace('sqlite');
    git(workspace.code, 'checkout', '-q', '-b', 'feature/net');
    mkdirSync(join(workspace.code, 'src'), { recursive: true });
    writeFileSync(join(workspace.code, 'src', 'net.ts'), 'export const TIMEOUT_MS = 500;\nexport const RETRIES = 3;\n');
    git(workspace.code, 'add', '.');
    git(workspace.code, 'commit', '-q', '-m', 'network client');
    head = git(workspace.code, 'rev-parse', 'HEAD');
    client = await connectStdio({ storeSpec: workspace.storeSpec, repo: REPO, citationReader: workspace.source });
  });
  afterAll(async () => {
    await client?.close();
    workspace?.cleanup();
  });

  it('memory.store, memory.supersede and memory.record_episode record the branch and commit', async () => {
    const stored = await ok(client, 'memory.store', {
      subject: 'Network timeout',
      fact: 'The network client times out after 500 ms.',
      citations: [{ path: 'src/net.ts', line_start: 1, line_end: 1 }],
    });
    const memory = stored.memory as { id: string; learned_on?: unknown };
    expect(memory.learned_on).toEqual({ ref: 'feature/net', commit: head });

    const corrected = await ok(client, 'memory.supersede', {
      memory_id: memory.id,
      subject: 'Network timeout',
      fact: 'The network client retries three times.',
      citations: [{ path: 'src/net.ts', line_start: 2, line_end: 2 }],
    });
    expect((corrected.replacement as { learned_on?: unknown }).learned_on).toEqual({
      ref: 'feature/net',
      commit: head,
    });

    const episode = await ok(client, 'memory.record_episode', { task_id: 'task-1', status: 'completed' });
    expect((episode.episode as { data: { learned_on?: unknown } }).data.learned_on).toEqual({
      ref: 'feature/net',
      commit: head,
    });
  });
});
