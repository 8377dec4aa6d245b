// Why: `repomem memories` end to end through `runCli`, on real SQLite files and a real git
// repository (built with the git CLI) as the citation source: store, recent, search, get, the
// recall loop invalidating a memory whose cited code changed in a new commit and re-anchoring one
// whose lines moved, invalidate, supersede, stats, `--json` shapes, the document backend on a
// directory store, and bad input that fails clearly and stores nothing.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, cli, commitFiles, git, jsonOf, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-memories-');
afterAll(() => temp.remove());

const REPO = 'acme/app';
const CONSTANTS = ['// constants', 'export const API_VERSION = 3;', 'export const RETRIES = 5;', ''].join('\n');
const CONFIG = ['module.exports = {', "  testEnvironment: 'node',", '};', ''].join('\n');

let counter = 0;
let work: string;
let repoDir: string;
let db: string;

/** `repomem memories <args> --repo acme/app --store sqlite:<db>` with the git repo as working directory. */
const memories = (...args: string[]): Promise<CliResult> =>
  cli(['memories', ...args, '--repo', REPO, '--store', `sqlite:${db}`], { cwd: repoDir });

const storeApiVersion = (...extra: string[]): Promise<CliResult> =>
  memories(
    'store',
    '--subject',
    'API version',
    '--fact',
    'The API version constant lives in src/constants.ts',
    '--cite',
    'src/constants.ts:2',
    ...extra,
  );

function idOf(result: CliResult): string {
  const json = jsonOf(result) as { memory: { id: string } };
  return json.memory.id;
}

beforeEach(() => {
  counter += 1;
  work = join(temp.path, `case${counter}`);
  repoDir = join(work, 'repo');
  db = join(work, 'memories.db');
  makeRepository(repoDir, { 'src/constants.ts': CONSTANTS, 'jest.config.js': CONFIG });
});

describe('repomem memories lifecycle', () => {
  it('store -> recent -> the cited line changes in a new commit -> verify --all invalidates it', async () => {
    const stored = await storeApiVersion('--json', '--reason', 'asked twice', '--by', 'agent-7');
    expect(stored.code).toBe(0);
    const storedJson = jsonOf(stored) as {
      ok: boolean;
      outcome: string;
      memory: Record<string, unknown>;
      superseded: unknown[];
    };
    expect(storedJson).toMatchObject({ ok: true, outcome: 'stored', superseded: [] });
    expect(storedJson.memory).toMatchObject({
      repo: REPO,
      subject: 'API version',
      status: 'active',
      reason: 'asked twice',
      created_by: 'agent-7',
      verification_count: 0,
    });
    const citation = (storedJson.memory.citations as Record<string, unknown>[])[0];
    expect(citation).toMatchObject({ path: 'src/constants.ts', line_start: 2, line_end: 2 });
    expect(citation?.snippet_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const id = storedJson.memory.id as string;

    const recent = await memories('recent');
    expect(recent).toEqual({
      code: 0,
      stdout: `1 active memory in ${REPO}\n${id}  API version\n  The API version constant lives in src/constants.ts\n  cites src/constants.ts:2\n`,
      stderr: '',
    });

    commitFiles(repoDir, { 'src/constants.ts': CONSTANTS.replace('= 3', '= 4') }, 'bump API version');
    const verify = await memories('verify', '--all');
    expect(verify.code).toBe(0);
    const lines = verify.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual([
      `verified 0, invalidated 1, unverified 0 in ${REPO} (source git:${repoDir})`,
      `invalidated ${id}: API version`,
    ]);
    expect(lines[2]).toMatch(/^ {2}src\/constants\.ts:2: lines_changed: /);
    expect(lines.slice(3)).toEqual(['']);
    expect((await memories('recent')).stdout).toBe(`no active memories in ${REPO}\n`);
    const got = jsonOf(await memories('get', '--id', id, '--json')) as { memory: Record<string, unknown> };
    expect(got).toMatchObject({ ok: true, outcome: 'found', memory: { id, status: 'invalid' } });
    expect(got.memory.invalid_reason).toEqual(expect.any(String));

    const stats = jsonOf(await memories('stats', '--json'));
    expect(stats).toMatchObject({
      ok: true,
      outcome: 'stats',
      repo: REPO,
      byStatus: { active: 0, invalid: 1, superseded: 0 },
      events: { created: 1, verified_invalid: 1 },
      verificationSuccessRate: 0,
    });
  });

  it('verify --all re-anchors a memory whose lines moved, and keeps it', async () => {
    const id = idOf(await storeApiVersion('--json'));
    commitFiles(repoDir, { 'src/constants.ts': `// header\n// more\n${CONSTANTS}` }, 'add a header');
    const verify = await memories('verify', '--all', '--json');
    expect(verify.code).toBe(0);
    const json = jsonOf(verify) as { outcome: string; verified: { id: string; citations: { line_start: number }[] }[] };
    expect(json.outcome).toBe('recalled');
    expect(json.verified).toHaveLength(1);
    expect(json.verified[0]?.id).toBe(id);
    expect(json.verified[0]?.citations[0]?.line_start).toBe(4);
    expect(jsonOf(await memories('get', '--id', id, '--json'))).toMatchObject({
      memory: { status: 'active', verification_count: 1 },
    });
  });

  it('verify --id refreshes a valid memory, invalidates a stale one, and verifies at --ref', async () => {
    const id = idOf(await storeApiVersion('--json'));
    const first = git(repoDir, 'rev-parse', 'HEAD').trim();
    const valid = await memories('verify', '--id', id);
    expect(valid).toEqual({ code: 0, stdout: `valid ${id}: API version\n`, stderr: '' });

    git(repoDir, 'rm', '-q', 'src/constants.ts');
    git(repoDir, 'commit', '-q', '-m', 'remove constants');
    // At the first commit the file still exists: still valid, nothing invalidated.
    expect((await memories('verify', '--id', id, '--ref', first)).stdout).toBe(`valid ${id}: API version\n`);
    const stale = await memories('verify', '--id', id, '--json');
    expect(stale.code).toBe(0);
    expect(jsonOf(stale)).toMatchObject({
      ok: true,
      outcome: 'invalidated',
      source: `git:${repoDir}`,
      memory: { id, status: 'invalid' },
      checks: [{ kind: 'invalid', reason: 'file_missing' }],
    });
    const again = await memories('verify', '--id', id);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`memory ${id} is invalid, not active (unchanged)\n`);
  });

  it('a new memory with the same subject supersedes the old one; supersede keeps the chain', async () => {
    const first = idOf(await storeApiVersion('--json'));
    const second = await storeApiVersion();
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(
      new RegExp(`^stored memory [0-9a-f-]{36}: API version\\nsuperseded ${first}: API version\\n$`),
    );

    const current = (jsonOf(await memories('recent', '--json')) as { memories: { id: string }[] }).memories;
    expect(current).toHaveLength(1);
    const currentId = current[0]?.id as string;
    const corrected = await memories(
      'supersede',
      '--id',
      currentId,
      '--fact',
      'Retries are configured next to the API version',
      '--cite',
      'src/constants.ts:2-3',
      '--json',
    );
    expect(corrected.code).toBe(0);
    const json = jsonOf(corrected) as {
      outcome: string;
      previous: Record<string, unknown>;
      replacement: Record<string, unknown>;
    };
    expect(json.outcome).toBe('superseded');
    expect(json.previous).toMatchObject({ id: currentId, status: 'superseded' });
    expect(json.replacement).toMatchObject({ subject: 'API version', supersedes: currentId, status: 'active' });
    expect(json.previous.superseded_by).toBe(json.replacement.id);

    const notActive = await memories('supersede', '--id', currentId, '--fact', 'x', '--cite', 'src/constants.ts:1');
    expect(notActive.code).toBe(2);
    expect(notActive.stderr).toContain('is superseded, not active');
  });

  it('search, invalidate and not-found outcomes', async () => {
    const id = idOf(await storeApiVersion('--json'));
    await memories(
      'store',
      '--subject',
      'Jest config',
      '--fact',
      'Tests run in the node environment',
      '--cite',
      'jest.config.js:2',
    );
    const search = jsonOf(await memories('search', 'node', 'environment', '--json')) as {
      count: number;
      memories: { subject: string }[];
    };
    expect(search.count).toBe(1);
    expect(search.memories[0]?.subject).toBe('Jest config');
    // FTS syntax is searched literally, never raised.
    const literal = await memories('search', '"NEAR*', 'a-b', 'OR');
    expect(literal).toEqual({ code: 0, stdout: `no active memories in ${REPO}\n`, stderr: '' });

    expect(await memories('invalidate', '--id', id, '--reason', 'moved to config')).toEqual({
      code: 0,
      stdout: `invalidated memory ${id}: API version\n`,
      stderr: '',
    });
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(await memories('get', '--id', missing)).toEqual({
      code: 2,
      stdout: '',
      stderr: `memory not found: ${missing} in ${REPO}\n`,
    });
    const missingJson = await memories('invalidate', '--id', missing, '--reason', 'r', '--json');
    expect(missingJson.code).toBe(2);
    expect(jsonOf(missingJson)).toEqual({ ok: false, outcome: 'not_found', id: missing, repo: REPO });
    // Another repository sees nothing of acme/app.
    const other = await cli(['memories', 'recent', '--repo', 'acme/other', '--store', `sqlite:${db}`], {
      cwd: repoDir,
    });
    expect(other.stdout).toBe('no active memories in acme/other\n');
  });
});

describe('citation sources and stores', () => {
  it('refuses (exit 2, nothing stored) a citation outside the file', async () => {
    const rejected = await memories('store', '--subject', 'S', '--fact', 'F', '--cite', 'src/constants.ts:40-41');
    expect(rejected.code).toBe(2);
    expect(rejected.stdout).toBe('');
    expect(rejected.stderr).toMatch(
      /^rejected: a citation does not hold in the current code \(nothing stored\)\n {2}src\/constants\.ts:40-41: out_of_range: /,
    );
    const missingFile = await memories('store', '--subject', 'S', '--fact', 'F', '--cite', 'nope.ts:1', '--json');
    expect(jsonOf(missingFile)).toMatchObject({
      ok: false,
      outcome: 'rejected',
      checks: [{ kind: 'invalid', reason: 'file_missing' }],
    });
    expect(jsonOf(await memories('stats', '--json'))).toMatchObject({
      byStatus: { active: 0, invalid: 0, superseded: 0 },
    });
  });

  it('reads citations from a plain directory with --source dir:', async () => {
    const tree = join(work, 'tree');
    mkdirSync(tree);
    writeFileSync(join(tree, 'notes.md'), 'one\ntwo\n');
    const stored = await memories(
      'store',
      '--subject',
      'Notes',
      '--fact',
      'two is second',
      '--cite',
      'notes.md:2',
      '--source',
      `dir:${tree}`,
    );
    expect(stored.code).toBe(0);
    const verify = await memories('verify', '--all', '--source', `dir:${tree}`);
    expect(verify.stdout).toMatch(/^verified 1, invalidated 0, unverified 0 in acme\/app \(source dir:/);
  });

  it('keeps records as documents in a directory store (dir:)', async () => {
    const memoryDir = join(work, 'mem');
    mkdirSync(memoryDir);
    const run = (...args: string[]) =>
      cli(['memories', ...args, '--repo', REPO, '--store', `dir:${memoryDir}`], { cwd: repoDir });
    const stored = await run(
      'store',
      '--subject',
      'API version',
      '--fact',
      'F',
      '--cite',
      'src/constants.ts:2',
      '--json',
    );
    expect(stored.code).toBe(0);
    expect(readdirSync(join(memoryDir, '.repomem', 'verified', 'acme', 'app', 'records'))).toEqual([
      `${idOf(stored)}.json`,
    ]);
    expect((await run('recent')).stdout).toContain('API version');
    const missing = await cli(['memories', 'stats', '--store', `dir:${join(work, 'absent')}`], { cwd: repoDir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Memory directory not found: ');
  });

  it('defaults to the git repository around the working directory, else the directory itself', async () => {
    const sub = join(repoDir, 'src');
    const fromSub = await cli(
      [
        'memories',
        'store',
        '--repo',
        REPO,
        '--store',
        `sqlite:${db}`,
        '--subject',
        'S',
        '--fact',
        'F',
        '--cite',
        'src/constants.ts:2',
        '--json',
      ],
      { cwd: sub },
    );
    expect(fromSub.code).toBe(0);
    const outside = join(work, 'outside');
    mkdirSync(outside);
    const verify = await cli(['memories', 'verify', '--all', '--repo', REPO, '--store', `sqlite:${db}`], {
      cwd: outside,
    });
    expect(verify.stdout).toMatch(/^verified 0, invalidated 1, unverified 0 in acme\/app \(source dir:.*outside\)/);
  });
});

describe('--source github (a loopback server answering the contents API)', () => {
  it('reads with $GITHUB_TOKEN at $GITHUB_API_URL; a file gone (404) invalidates the memory', async () => {
    let present = true;
    const seen: { url: string; auth: string | undefined }[] = [];
    const server = createServer((request: IncomingMessage, response: ServerResponse) => {
      seen.push({ url: request.url ?? '', auth: request.headers.authorization });
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (present && url.pathname === '/repos/acme/app/contents/src/constants.ts') {
        const bytes = Buffer.from(CONSTANTS);
        const sha = createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
        response.writeHead(200, { 'content-type': 'application/json', etag: `"${sha}"` });
        response.end(
          JSON.stringify({
            type: 'file',
            size: bytes.length,
            name: 'constants.ts',
            path: 'src/constants.ts',
            sha,
            encoding: 'base64',
            content: bytes.toString('base64'),
          }),
        );
        return;
      }
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: 'Not Found' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const env = { GITHUB_TOKEN: 'test-token', GITHUB_API_URL: `http://127.0.0.1:${port}` };
      const run = (...args: string[]) =>
        cli(['memories', ...args, '--repo', REPO, '--store', `sqlite:${db}`, '--source', 'github'], { cwd: work, env });
      const stored = await run('store', '--subject', 'API', '--fact', 'F', '--cite', 'src/constants.ts:2', '--json');
      expect(stored.code).toBe(0);
      expect((await run('verify', '--all')).stdout).toMatch(
        /^verified 1, invalidated 0, unverified 0 in acme\/app \(source github\)/,
      );
      present = false;
      const verify = await run('verify', '--all', '--ref', 'main', '--json');
      expect(jsonOf(verify)).toMatchObject({ ok: true, outcome: 'recalled', source: 'github#main', verified: [] });
      expect((jsonOf(verify).invalidated as unknown[]).length).toBe(1);
      expect(seen.length).toBeGreaterThan(0);
      for (const request of seen) expect(request.auth).toBe('token test-token');
      expect(seen.at(-1)?.url).toContain('ref=main');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('bad input exits 1 with a message naming the problem and stores nothing', () => {
  it.each([
    [['store', '--subject', 'S', '--fact', 'F', '--cite', '../secrets.txt:1'], 'invalid --cite "../secrets.txt:1"'],
    [['store', '--subject', 'S', '--fact', 'F', '--cite', 'src/constants.ts:3-2'], 'line_end must be >= line_start'],
    [['store', '--subject', 'S', '--fact', 'F'], '--cite <path>:<start>-<end> is required'],
    [['store', '--subject', 'S', '--fact', ' ', '--cite', 'src/constants.ts:2'], '--fact is required'],
    [
      ['store', '--subject', 'S', '--fact', 'x'.repeat(3201), '--cite', 'src/constants.ts:2'],
      'fact is longer than 3200 characters',
    ],
    [['verify', '--id', 'abc'], 'invalid --id "abc"'],
    [['verify', '--all', '--source', 'ftp:x'], 'invalid --source "ftp:x"'],
    [['verify', '--all', '--source', 'dir:.', '--ref', 'main'], '--ref main needs a git or github source'],
    [['recent', '--subject', 'x'], 'option --subject does not apply to memories recent'],
    [['stats', '--repo', 'bad slug'], 'invalid --repo "bad slug"'],
    [['stats', '--store', 'nope'], 'invalid store spec "nope"'],
  ])('%j', async (args, message) => {
    const extra = [
      ...(args.includes('--repo') ? [] : ['--repo', REPO]),
      ...(args.includes('--store') ? [] : ['--store', `sqlite:${db}`]),
    ];
    const result = await cli(['memories', ...args, ...extra], { cwd: repoDir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: repomem memories');
    if (existsSync(db)) {
      expect(jsonOf(await memories('stats', '--json'))).toMatchObject({
        byStatus: { active: 0, invalid: 0, superseded: 0 },
      });
    }
  });

  it('--json errors are one object', async () => {
    const result = await memories('get', '--id', 'x', '--json');
    expect(result.code).toBe(1);
    expect(jsonOf(result)).toMatchObject({ ok: false, outcome: 'error', code: 'USAGE' });
  });
});
