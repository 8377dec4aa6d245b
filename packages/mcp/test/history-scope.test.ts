// Why: on a git store every repository's task and verified records are documents under
// `.repomem/` of the one memory branch. A server scoped to one repository must not hand them out
// through its history tools, exactly as resources hide them: `memory.read_at` and
// `memory.history` refuse `.repomem/` paths, and the unfiltered history leaves out revisions that
// only wrote such records. Checked through the official SDK client over stdio.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, connectStdio, errorText, makeWorkspace, ok, type Workspace } from './helpers.js';

const CITATION = { path: 'src/version.ts', line_start: 2, line_end: 2 };

describe('history tools on a git store stay within the server scope', () => {
  let workspace: Workspace;
  let other: Client;
  let client: Client;
  beforeAll(async () => {
    workspace = makeWorkspace('git');
    // Another repository's server writes its episode, a verified memory and a bullet.
    other = await connectStdio({ storeSpec: workspace.storeSpec, repo: 'acme/b', citationReader: workspace.source });
    await ok(other, 'memory.add', { file: 'MEMORY.md', section: 'Durable', text: 'Shared bullet' });
    await ok(other, 'memory.record_episode', { task_id: 'b-1', status: 'completed', description: 'secret of b' });
    await ok(other, 'memory.store', { subject: 'B only', fact: 'A fact of acme/b.', citations: [CITATION] });
    await other.close();
    client = await connectStdio({ storeSpec: workspace.storeSpec, repo: 'acme/a', citationReader: workspace.source });
  });
  afterAll(async () => {
    await client?.close();
    workspace?.cleanup();
  });

  it('memory.read_at refuses repomem records of any repository', async () => {
    for (const path of [
      '.repomem/tasks/episode/acme/b/b-1.json',
      './.repomem/tasks/episode/acme/b/b-1.json',
      '.repomem',
    ]) {
      const result = await call(client, 'memory.read_at', { path, at: 'agent/memory' });
      expect(result.isError, path).toBe(true);
      expect(errorText(result)).toContain('out of scope');
      expect(errorText(result)).not.toContain('secret of b');
    }
    const listed = await ok(client, 'memory.history', { limit: 100 });
    const revisions = listed.revisions as { revision: string }[];
    // Whatever revision is named, the verified records stay out of reach.
    for (const { revision } of revisions) {
      const result = await call(client, 'memory.read_at', {
        path: '.repomem/verified/acme/b/memories.json',
        at: revision,
      });
      expect(result.isError).toBe(true);
    }
    expect(await ok(client, 'memory.read_at', { path: 'MEMORY.md', at: 'agent/memory' })).toMatchObject({
      status: 'found',
    });
  });

  it('memory.history refuses a .repomem/ path and lists no revision that only wrote records', async () => {
    const refused = await call(client, 'memory.history', { path: '.repomem/tasks/episode/acme/b/b-1.json' });
    expect(refused.isError).toBe(true);
    expect(errorText(refused)).toContain('out of scope');
    const listed = await ok(client, 'memory.history', { limit: 100 });
    const messages = (listed.revisions as { message: string }[]).map((revision) => revision.message);
    expect(messages.some((message) => message.includes('MEMORY.md'))).toBe(true);
    expect(messages.filter((message) => /record|episode|verified|\.repomem/i.test(message))).toEqual([]);
    const memory = await ok(client, 'memory.history', { path: 'MEMORY.md' });
    expect((memory.revisions as unknown[]).length).toBeGreaterThan(0);
  });
});
