// Why: `repomem export` / `import` must move a repository's memory between any two stores without
// losing a byte or a record id. Each pair here is a round trip A -> B -> C (C a fresh store of A's
// kind): the documents of A, B and C are byte for byte the same (a non-UTF-8 file included), and
// the verified memories and task records keep their ids and content, for every ordered pair of
// the directory, SQLite and git stores. Also: a second run changes nothing, a dry run writes
// nothing, a differing item is left alone (exit 2) unless --overwrite.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  openCitationReader,
  openStore,
  openTaskRecordBackend,
  openVerifiedBackend,
  openVerifiedMemory,
  TASK_RECORD_KINDS,
  writeEpisode,
} from '@repomem/core';
import { EMULATOR_CREDENTIALS, startAgentCoreEmulator } from '@repomem/store-agentcore/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cli, jsonOf, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-transfer-');
afterAll(() => temp.remove());
const REPO = 'acme/app';
let counter = 0;

const BINARY = new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0x0a]);
const DOCUMENTS: Record<string, Uint8Array | string> = {
  'MEMORY.md': '# Memory\n\n## Conventions\n\n- Release from main\n',
  'daily/2026-05-01.md': '# 2026-05-01\n\n- looked at flaky tests\n',
  'github/acme/app/issues/1.json': '{"number":1,"title":"Crash on start"}\n',
  'notes/blob.bin': BINARY,
};

/** A fresh spec of `kind` inside `work` (git: a new repository). */
function specOf(kind: string, work: string, name: string): string {
  if (kind === 'dir') return `dir:${join(work, name)}`;
  if (kind === 'sqlite') return `sqlite:${join(work, `${name}.db`)}`;
  const dir = join(work, name);
  makeRepository(dir, { 'README.md': '# code\n' });
  return `git:${dir}`;
}

async function seed(spec: string, work: string): Promise<void> {
  const store = await openStore(spec, { repo: REPO, create: true, cwd: work });
  const encoder = new TextEncoder();
  await store.write(
    Object.entries(DOCUMENTS).map(([path, content]) => ({
      kind: 'put' as const,
      path,
      content: typeof content === 'string' ? encoder.encode(content) : content,
      expectedVersion: null,
    })),
  );
  await store.close();
  const code = join(work, 'code');
  mkdirSync(code, { recursive: true });
  writeFileSync(join(code, 'package.json'), '{\n  "engines": { "node": ">=22.16" }\n}\n');
  const verified = openVerifiedMemory({
    backend: await openVerifiedBackend(spec, { repo: REPO, cwd: work }),
    citations: await openCitationReader(`dir:${code}`, { repo: REPO }),
  });
  const stored = await verified.store({
    repo: REPO,
    subject: 'Node version',
    fact: 'Node 22.16 or later',
    citations: [{ path: 'package.json', line_start: 2, line_end: 2 }],
  });
  expect(stored.kind).toBe('stored');
  await verified.close();
  const tasks = await openTaskRecordBackend(spec, { repo: REPO, cwd: work });
  const written = await writeEpisode({
    backend: tasks,
    repo: REPO,
    episode: { task_id: 'task-7', status: 'completed', approach: 'bumped the engines field' },
  });
  expect(written.kind).toBe('written');
  await tasks.close();
}

/** Everything a store holds for REPO: documents (base64, repomem's own excluded) and records without revisions. */
async function contents(spec: string, work: string) {
  const store = await openStore(spec, { repo: REPO, cwd: work, readOnly: true });
  const documents: Record<string, string> = {};
  for (const entry of await store.list()) {
    if (entry.path.startsWith('.repomem/')) continue;
    documents[entry.path] = Buffer.from((await store.get(entry.path))?.content ?? []).toString('base64');
  }
  await store.close();
  const verifiedBackend = await openVerifiedBackend(spec, { repo: REPO, cwd: work, readOnly: true });
  const verified = (await verifiedBackend.recent({ repo: REPO })).map(({ revision: _r, ...rest }) => rest);
  await verifiedBackend.close();
  const tasksBackend = await openTaskRecordBackend(spec, { repo: REPO, cwd: work, readOnly: true });
  const tasks = [];
  for (const kind of TASK_RECORD_KINDS) {
    for (const { revision: _r, ...rest } of await tasksBackend.list({ repo: REPO, kind })) tasks.push(rest);
  }
  await tasksBackend.close();
  return { documents, verified, tasks };
}

describe.each([
  ['dir', 'sqlite'],
  ['dir', 'git'],
  ['sqlite', 'dir'],
  ['sqlite', 'git'],
  ['git', 'dir'],
  ['git', 'sqlite'],
])('repomem export / import: %s -> %s -> a fresh store of the first kind', (kindA, kindB) => {
  it('round-trips documents byte for byte and records with their ids', async () => {
    counter += 1;
    const work = join(temp.path, `case${counter}`);
    mkdirSync(work, { recursive: true });
    const a = specOf(kindA, work, 'a');
    const b = specOf(kindB, work, 'b');
    const c = specOf(kindA, work, 'c');
    await seed(a, work);
    const original = await contents(a, work);
    expect(Object.keys(original.documents).sort()).toEqual(Object.keys(DOCUMENTS).sort());
    expect(original.verified).toHaveLength(1);
    expect(original.tasks).toHaveLength(1);

    const dry = await cli(['export', '--store', a, '--to', b, '--repo', REPO, '--dry-run', '--json'], { cwd: work });
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(jsonOf(dry)).toMatchObject({
      dryRun: true,
      documents: { copied: 4 },
      verified: { copied: 1 },
      tasks: { copied: 1 },
    });

    const exported = await cli(['export', '--store', a, '--to', b, '--repo', REPO], { cwd: work });
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain('documents: 4 copied, 0 overwritten, 0 unchanged, 0 conflicts');
    expect(await contents(b, work)).toEqual(original);

    const imported = await cli(['import', '--store', c, '--from', b, '--repo', REPO, '--json'], { cwd: work });
    expect(imported.code).toBe(0);
    expect(await contents(c, work)).toEqual(original);

    const again = await cli(['import', '--store', c, '--from', b, '--repo', REPO, '--json'], { cwd: work });
    expect(jsonOf(again)).toMatchObject({
      documents: { copied: 0, unchanged: 4 },
      verified: { copied: 0, unchanged: 1 },
      tasks: { copied: 0, unchanged: 1 },
      conflicts: [],
    });
  });
});

describe('repomem export between two git stores', () => {
  it('replays the history: the same messages, and old revisions read back as they were', async () => {
    counter += 1;
    const work = join(temp.path, `case${counter}`);
    mkdirSync(work, { recursive: true });
    const a = specOf('git', work, 'a');
    const b = specOf('git', work, 'b');
    await seed(a, work);
    const store = await openStore(a, { repo: REPO, cwd: work });
    const encoder = new TextEncoder();
    const before = await store.get('MEMORY.md');
    await store.write(
      [
        {
          kind: 'put',
          path: 'MEMORY.md',
          content: encoder.encode('# Memory\n\n## Conventions\n\n- Release on Fridays\n'),
          expectedVersion: before?.version ?? null,
        },
      ],
      { message: 'memory: release day', trailers: { 'Task-Id': 'task-9' } },
    );
    const sourceLog = (await store.history?.log({ hidePrefix: '.repomem/' })) ?? [];
    await store.close();

    const exported = await cli(['export', '--store', a, '--to', b, '--repo', REPO, '--json'], { cwd: work });
    expect(exported.code).toBe(0);
    const report = jsonOf(exported);
    expect(report).toMatchObject({
      history: { kind: 'replayed', revisions: 2 },
      documents: { copied: 4, conflict: 0 },
    });

    const target = await openStore(b, { repo: REPO, cwd: work, readOnly: true });
    const targetLog = (await target.history?.log({ hidePrefix: '.repomem/' })) ?? [];
    expect(targetLog.slice(0, 2).map((entry) => [entry.message, entry.trailers['Task-Id']])).toEqual(
      sourceLog.slice(0, 2).map((entry) => [entry.message, entry.trailers['Task-Id']]),
    );
    const older = await target.history?.readAt('MEMORY.md', targetLog[1]?.revision ?? '');
    expect(older?.status === 'found' && new TextDecoder().decode(older.document.content)).toContain(
      'Release from main',
    );
    await target.close();
    expect(await contents(b, work)).toEqual(await contents(a, work));
  });
});

describe('repomem export / import through Amazon Bedrock AgentCore Memory (the emulator)', () => {
  it('round-trips dir -> agentcore -> dir byte for byte, records with their ids', async () => {
    const emulator = await startAgentCoreEmulator();
    vi.stubEnv('AWS_ACCESS_KEY_ID', EMULATOR_CREDENTIALS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', EMULATOR_CREDENTIALS.secretAccessKey);
    try {
      counter += 1;
      const work = join(temp.path, `case${counter}`);
      mkdirSync(work, { recursive: true });
      const a = specOf('dir', work, 'a');
      const b = `agentcore:${emulator.memoryId}?${new URLSearchParams({ region: emulator.region, endpoint: emulator.endpoint })}`;
      const c = specOf('dir', work, 'c');
      await seed(a, work);
      const original = await contents(a, work);
      const exported = await cli(['export', '--store', a, '--to', b, '--repo', REPO], { cwd: work });
      expect(exported.stderr).toBe('');
      expect(exported.code).toBe(0);
      expect(await contents(b, work)).toEqual(original);
      const imported = await cli(['import', '--store', c, '--from', b, '--repo', REPO], { cwd: work });
      expect(imported.code).toBe(0);
      expect(await contents(c, work)).toEqual(original);
    } finally {
      vi.unstubAllEnvs();
      await emulator.close();
    }
  });
});

describe('repomem export / import: conflicts and usage', () => {
  it('leaves a differing document alone (exit 2) unless --overwrite', async () => {
    counter += 1;
    const work = join(temp.path, `case${counter}`);
    mkdirSync(work, { recursive: true });
    const a = specOf('sqlite', work, 'a');
    const b = specOf('dir', work, 'b');
    await seed(a, work);
    mkdirSync(join(work, 'b'), { recursive: true });
    writeFileSync(join(work, 'b', 'MEMORY.md'), '# Theirs\n');
    const refused = await cli(['export', '--store', a, '--to', b, '--repo', REPO], { cwd: work });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain('document MEMORY.md');
    expect((await contents(b, work)).documents['MEMORY.md']).toBe(Buffer.from('# Theirs\n').toString('base64'));
    const forced = await cli(['export', '--store', a, '--to', b, '--repo', REPO, '--overwrite', '--json'], {
      cwd: work,
    });
    expect(jsonOf(forced)).toMatchObject({ documents: { overwritten: 1, unchanged: 3 } });
    expect(await contents(b, work)).toEqual(await contents(a, work));
  });

  it('needs --to / --from and explains itself', async () => {
    const missing = await cli(['export'], { cwd: temp.path });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('missing --to <spec>');
    const help = await cli(['import', '--help'], { cwd: temp.path });
    expect(help.stdout).toMatch(/^Usage: repomem import --from <spec>/);
  });
});
