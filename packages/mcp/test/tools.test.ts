// Why: the server as a client sees it, through the official SDK over stdio: every tool is listed
// with its schemas and hints, and every tool works on the SQLite, directory and git stores.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  connectStdio,
  errorText,
  makeWorkspace,
  ok,
  STORE_KINDS,
  type StoreKind,
  type Workspace,
} from './helpers.js';

const REPO = 'acme/app';
const VERIFIED_TOOLS = [
  'memory.store',
  'memory.get_recent',
  'memory.search_by_path',
  'memory.refresh',
  'memory.invalidate',
  'memory.supersede',
  'memory.log_applied',
  'memory.read_citation',
  'memory.verify_citations',
  'memory.impact',
  'memory.stats',
];
const BULLET_TOOLS = ['memory.add', 'memory.replace', 'memory.remove', 'memory.daily_append', 'memory.search'];
const HISTORY_TOOLS = ['memory.history', 'memory.read_at'];
const TASK_TOOLS = ['memory.hydrate', 'memory.record_episode', 'memory.list_rules'];
const WRITE_TOOLS = new Set([
  'memory.store',
  'memory.refresh',
  'memory.invalidate',
  'memory.supersede',
  'memory.log_applied',
  'memory.add',
  'memory.replace',
  'memory.remove',
  'memory.daily_append',
  'memory.hydrate',
  'memory.record_episode',
]);
const DESTRUCTIVE_TOOLS = new Set(['memory.invalidate', 'memory.supersede', 'memory.replace', 'memory.remove']);
const CITATION = { path: 'src/version.ts', line_start: 2, line_end: 2 };

describe.each(STORE_KINDS)('every tool on the %s store', (kind: StoreKind) => {
  let workspace: Workspace;
  let client: Client;
  beforeAll(async () => {
    workspace = makeWorkspace(kind);
    client = await connectStdio({
      storeSpec: workspace.storeSpec,
      repo: REPO,
      citationReader: workspace.source,
      watchIntervalMs: 50,
    });
  });
  afterAll(async () => {
    await client?.close();
    workspace?.cleanup();
  });

  it('lists every tool with input and output schemas and all four hints', async () => {
    const { tools } = await client.listTools();
    const expected = [...VERIFIED_TOOLS, ...BULLET_TOOLS, ...TASK_TOOLS, ...(kind === 'git' ? HISTORY_TOOLS : [])];
    expect(tools.map((tool) => tool.name).sort()).toEqual([...expected].sort());
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
      expect(tool.description?.length ?? 0).toBeGreaterThan(20);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(Object.keys(tool.outputSchema?.properties ?? {}).length).toBeGreaterThan(0);
      expect(tool.annotations).toMatchObject({
        readOnlyHint: !WRITE_TOOLS.has(tool.name),
        destructiveHint: DESTRUCTIVE_TOOLS.has(tool.name),
        openWorldHint: false,
      });
      expect(typeof tool.annotations?.idempotentHint).toBe('boolean');
    }
    const store = tools.find((tool) => tool.name === 'memory.store');
    expect(store?.inputSchema.required).toEqual(expect.arrayContaining(['subject', 'fact', 'citations']));
  });

  it('bullet tools: add, duplicate, replace, remove, daily_append and the outcomes to handle', async () => {
    const added = await ok(client, 'memory.add', { file: 'MEMORY.md', section: 'Conventions', text: 'Use pnpm' });
    expect(added).toMatchObject({ kind: 'added', path: 'MEMORY.md', written: true });
    expect(
      await ok(client, 'memory.add', { file: 'MEMORY.md', section: 'Conventions', text: 'Use pnpm' }),
    ).toMatchObject({
      kind: 'duplicate',
      written: false,
    });
    await ok(client, 'memory.add', { file: 'MEMORY.md', section: 'Conventions', text: 'Use biome for lint' });
    await ok(client, 'memory.add', { file: 'MEMORY.md', section: 'Conventions', text: 'Use biome for format' });
    expect(
      await ok(client, 'memory.replace', {
        file: 'MEMORY.md',
        section: 'Conventions',
        match: 'pnpm',
        with: 'Use pnpm 10',
      }),
    ).toMatchObject({ kind: 'replaced', bullet: '- Use pnpm 10', written: true });
    expect(
      await ok(client, 'memory.remove', { file: 'MEMORY.md', section: 'Conventions', match: 'biome' }),
    ).toMatchObject({
      kind: 'ambiguous',
      written: false,
      candidates: ['- Use biome for lint', '- Use biome for format'],
    });
    expect(
      await ok(client, 'memory.remove', { file: 'MEMORY.md', section: 'Conventions', match: 'yarn' }),
    ).toMatchObject({
      kind: 'no_match',
    });
    expect(await ok(client, 'memory.add', { file: 'MEMORY.md', section: 'Nowhere', text: 'x' })).toMatchObject({
      kind: 'missing_section',
      sections: expect.arrayContaining(['Conventions']),
    });
    expect(
      await ok(client, 'memory.remove', { file: 'MEMORY.md', section: 'Conventions', match: 'format' }),
    ).toMatchObject({
      kind: 'removed',
    });
    expect(
      await ok(client, 'memory.daily_append', { text: 'Shipped the MCP server', date: '2026-01-02' }),
    ).toMatchObject({
      kind: 'added',
      path: 'daily/2026-01-02.md',
    });
    const found = await ok(client, 'memory.search', { query: 'pnpm' });
    expect((found.results as { path: string }[]).map((hit) => hit.path)).toContain('MEMORY.md');
  });

  it('documents are resources, and a write by another client sends a list-changed notification', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(
      expect.arrayContaining(['repomem://memory/MEMORY.md', 'repomem://memory/daily/2026-01-02.md']),
    );
    const read = await client.readResource({ uri: 'repomem://memory/MEMORY.md' });
    expect(read.contents[0]).toMatchObject({
      mimeType: 'text/markdown',
      text: expect.stringContaining('- Use pnpm 10'),
    });
    const changed = new Promise<void>((resolve) => {
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve());
    });
    const other = await connectStdio({ storeSpec: workspace.storeSpec, repo: REPO, watchIntervalMs: 0 });
    try {
      await ok(other, 'memory.daily_append', { text: 'From another window', date: '2026-01-03' });
    } finally {
      await other.close();
    }
    await changed;
    const after = await client.listResources();
    expect(after.resources.map((resource) => resource.uri)).toContain('repomem://memory/daily/2026-01-03.md');
    const prompt = await client.getPrompt({ name: 'memory-rules' });
    expect(JSON.stringify(prompt.messages)).toContain('Treat memories as hypotheses, not truth');
  });

  it('verified-memory tools: store, recent, by path, citations, refresh, applied, supersede, invalidate, stats', async () => {
    const stored = await ok(client, 'memory.store', {
      repo: REPO,
      subject: 'API version synchronization',
      fact: 'API_VERSION in src/version.ts must match the docs.',
      citations: [CITATION],
      reason: 'Prevents integration breakage.',
      created_by: 'test-agent',
    });
    expect(stored.kind).toBe('stored');
    const memory = stored.memory as { id: string; citations: { snippet_hash?: string }[] };
    expect(memory.citations[0]?.snippet_hash).toMatch(/^sha256:/);
    const rejected = await ok(client, 'memory.store', {
      subject: 'Ghost',
      fact: 'Cites nothing real.',
      citations: [{ path: 'src/missing.ts', line_start: 1, line_end: 1 }],
    });
    expect(rejected).toMatchObject({ kind: 'rejected', checks: [{ kind: 'invalid', reason: 'file_missing' }] });

    const recent = await ok(client, 'memory.get_recent', { limit: 10 });
    expect((recent.memories as { id: string }[]).map((item) => item.id)).toEqual([memory.id]);
    const byPath = await ok(client, 'memory.search_by_path', { path: 'src/version.ts' });
    expect((byPath.memories as unknown[]).length).toBe(1);
    expect(await ok(client, 'memory.read_citation', { citation: CITATION })).toMatchObject({
      kind: 'valid',
      content: "export const API_VERSION = '2';",
    });
    const verification = await ok(client, 'memory.verify_citations', {
      citations: [
        CITATION,
        { path: 'src/version.ts', line_start: 3, line_end: 3 },
        { path: 'nope.ts', line_start: 1, line_end: 1 },
      ],
    });
    expect(verification).toMatchObject({ valid: false, valid_count: 2, invalid_count: 1 });
    expect((verification.citations as { exists: boolean }[]).map((item) => item.exists)).toEqual([true, true, false]);
    expect(await ok(client, 'memory.impact', { base: 'HEAD' })).toMatchObject({
      base: 'HEAD',
      head: 'HEAD',
      checked: 1,
      touched: [],
      counts: { invalidated: 0, unknown: 0, reanchored: 0, valid: 0 },
    });

    expect(await ok(client, 'memory.refresh', { memory_id: memory.id })).toMatchObject({
      kind: 'changed',
      memory: { verification_count: 1 },
    });
    expect(await ok(client, 'memory.log_applied', { memory_id: memory.id, details: { task: 't1' } })).toMatchObject({
      kind: 'changed',
    });
    const superseded = await ok(client, 'memory.supersede', {
      memory_id: memory.id,
      subject: 'API version synchronization',
      fact: 'API_VERSION and NAME in src/version.ts are published together.',
      citations: [{ path: 'src/version.ts', line_start: 2, line_end: 3 }],
    });
    expect(superseded).toMatchObject({ kind: 'superseded', previous: { status: 'superseded' } });
    const replacement = superseded.replacement as { id: string; supersedes: string };
    expect(replacement.supersedes).toBe(memory.id);
    expect(await ok(client, 'memory.refresh', { memory_id: memory.id })).toMatchObject({ kind: 'not_active' });
    expect(
      await ok(client, 'memory.invalidate', { memory_id: replacement.id, reason: 'NAME moved to another file' }),
    ).toMatchObject({ kind: 'changed', memory: { status: 'invalid' } });
    expect(await ok(client, 'memory.refresh', { memory_id: '00000000-0000-4000-8000-000000000000' })).toMatchObject({
      kind: 'not_found',
    });
    const stats = await ok(client, 'memory.stats');
    expect(stats).toMatchObject({
      repo: REPO,
      by_status: { active: 0, invalid: 1, superseded: 1 },
      events: { created: 2, refreshed: 1, applied: 1 },
    });
  });

  it('task tools: record an episode (idempotent), then hydrate a task with memories checked now', async () => {
    const episode = {
      task_id: `task-${kind}-1`,
      status: 'completed',
      description: 'Bump the API version to 3',
      approach: 'Changed API_VERSION in src/version.ts and the docs together',
      files_changed: ['src/version.ts'],
    };
    expect(await ok(client, 'memory.record_episode', episode)).toMatchObject({
      kind: 'written',
      episode: { id: episode.task_id, data: { status: 'completed', minimal: false } },
    });
    expect(await ok(client, 'memory.record_episode', episode)).toMatchObject({ kind: 'unchanged' });
    const stored = await ok(client, 'memory.store', {
      subject: 'API version location',
      fact: 'The API version constant lives in src/version.ts.',
      citations: [CITATION],
    });
    const hydrated = await ok(client, 'memory.hydrate', {
      description: 'Bump the API version again',
      task_id: `task-${kind}-2`,
      budget_tokens: 2000,
      record_receipt: true,
    });
    expect(hydrated).toMatchObject({ status: 'ok', memory_available: true });
    expect(hydrated.markdown).toContain('The API version constant lives in src/version.ts.');
    expect(hydrated.markdown).toContain('Changed API_VERSION in src/version.ts');
    const context = hydrated.context as { verified: { id: string }[]; episodes: { id: string }[] };
    expect(context.verified.map((memory) => memory.id)).toEqual([(stored.memory as { id: string }).id]);
    expect(context.episodes.map((item) => item.id)).toEqual([episode.task_id]);
    const receipt = hydrated.receipt as { task_id: string; items: { source: string; included: boolean }[] };
    expect(receipt.task_id).toBe(`task-${kind}-2`);
    expect(receipt.items.filter((item) => item.included).map((item) => item.source)).toEqual(
      expect.arrayContaining(['verified', 'episodes']),
    );
    const invalid = await call(client, 'memory.record_episode', { task_id: 'x', status: 'exploded' });
    expect(invalid.isError).toBe(true);
  });

  it('misuse is a tool error with a code and no stack trace; another repository is refused', async () => {
    const invalid = await call(client, 'memory.store', { subject: 'x', fact: 'y', citations: [] });
    expect(invalid.isError).toBe(true);
    expect(errorText(invalid)).toMatch(/citations/);
    const badId = await call(client, 'memory.refresh', { memory_id: 'not-a-uuid' });
    expect(badId.isError).toBe(true);
    expect(errorText(badId)).toMatch(/memory_id/);
    const outOfScope = await call(client, 'memory.get_recent', { repo: 'other/repo' });
    expect(outOfScope.isError).toBe(true);
    expect(errorText(outOfScope)).toMatch(/^INVALID_ARGUMENT: this server is scoped to the repository acme\/app/);
    expect(outOfScope._meta).toEqual({ 'repomem/error-code': 'INVALID_ARGUMENT' });
    const secret = await call(client, 'memory.add', {
      file: 'MEMORY.md',
      section: 'Conventions',
      text: 'token ghp_0123456789abcdefghijABCDEFGHIJ0123456789',
    });
    expect(errorText(secret)).toMatch(/^SECRET_DETECTED: /);
    for (const result of [invalid, badId, outOfScope, secret]) expect(errorText(result)).not.toMatch(/\n\s+at /);
  });

  it.runIf(kind === 'git')('history tools list revisions and read a document as it was', async () => {
    const history = await ok(client, 'memory.history', { path: 'MEMORY.md', limit: 50 });
    const revisions = history.revisions as { revision: string; message: string }[];
    expect(revisions.length).toBeGreaterThanOrEqual(4);
    const oldest = revisions.at(-1) as { revision: string };
    const then = await ok(client, 'memory.read_at', { path: 'MEMORY.md', at: oldest.revision });
    expect(then).toMatchObject({ status: 'found', text: expect.stringContaining('- Use pnpm') });
    expect(then.text).not.toContain('pnpm 10');
    expect(await ok(client, 'memory.read_at', { path: 'daily/2026-01-03.md', at: oldest.revision })).toMatchObject({
      status: 'absent',
    });
    expect(await ok(client, 'memory.read_at', { path: 'MEMORY.md', at: '2000-01-01T00:00:00Z' })).toMatchObject({
      status: 'no_revision',
    });
  });
});
