// Why: the task-memory commands end to end through `runCli` on real stores (a SQLite file and a
// memory directory): a whole task life cycle (preferences, learnings, context with a stored
// receipt, episode, a second context and the diff of the two), `--json` shapes, and misuse.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, cli, jsonOf, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-tasks-');
afterAll(() => temp.remove());

const REPO = 'acme/app';
let work: string;
let counter = 0;
let store: string;

const run = (...args: string[]): Promise<CliResult> => cli([...args, '--repo', REPO, '--store', store], { cwd: work });

beforeEach(() => {
  counter += 1;
  work = join(temp.path, `case-${counter}`);
  mkdirSync(work, { recursive: true });
  store = `sqlite:${join(work, 'memory.db')}`;
});

describe('task memory commands', () => {
  it('runs a task life cycle: prefs, learnings, context with a receipt, episode, second context, diff', async () => {
    expect((await run('prefs', 'set', '--user', 'bob', '--from-task', 'Add caching. I prefer small PRs.')).code).toBe(
      0,
    );
    const learned = await run(
      'learnings',
      'add',
      '--task-id',
      'task-0',
      '--text',
      '**[Session cache (src/auth/)]:** The session service caches tokens for 5 minutes.',
      '--json',
    );
    expect(jsonOf(learned)).toMatchObject({ ok: true, outcome: 'recorded', outcomes: [{ kind: 'stored' }] });

    const first = await run(
      'context',
      '--task',
      'Fix the session token cache',
      '--task-id',
      'task-1',
      '--user',
      'bob',
      '--record',
      '--json',
    );
    const hydrated = jsonOf(first);
    expect(hydrated).toMatchObject({ ok: true, outcome: 'hydrated', status: 'ok', memory_available: true });
    expect(hydrated.markdown).toContain('### Repository knowledge');
    expect(hydrated.markdown).toContain('### Preferences of @bob');

    const markdown = await run('context', '--task', 'Fix the session token cache', '--user', 'bob');
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('## Memory from earlier tasks on acme/app');

    const episode = await run(
      'episode',
      'write',
      '--task-id',
      'task-1',
      '--status',
      'completed',
      '--description',
      'Fix the session token cache',
      '--file',
      'src/auth/session.ts',
      '--pr-number',
      '12',
      '--json',
    );
    expect(jsonOf(episode)).toMatchObject({ ok: true, outcome: 'written' });
    expect(
      jsonOf(
        await run(
          'episode',
          'write',
          '--task-id',
          'task-1',
          '--status',
          'completed',
          '--description',
          'Fix the session token cache',
          '--file',
          'src/auth/session.ts',
          '--pr-number',
          '12',
          '--json',
        ),
      ),
    ).toMatchObject({ outcome: 'unchanged' });
    expect(
      (await run('episode', 'write', '--task-id', 'task-1', '--status', 'failed', '--minimal', '--json')).code,
    ).toBe(0);
    expect(jsonOf(await run('episode', 'get', '--task-id', 'task-1', '--json'))).toMatchObject({
      episode: { data: { status: 'completed', minimal: false } },
    });
    expect((await run('episode', 'list')).stdout).toContain('task-1  completed');

    await run('context', '--task', 'Session cache expiry', '--task-id', 'task-2', '--user', 'bob', '--record');
    const receipt = jsonOf(await run('context', 'receipts', '--task', 'task-2', '--json'));
    expect(receipt).toMatchObject({
      ok: true,
      outcome: 'receipt',
      receipt: { task_id: 'task-2', estimator: 'chars/4' },
    });
    const text = await run('context', 'receipts', '--task', 'task-2');
    expect(text.stdout).toContain('episodes');
    const diff = jsonOf(await run('context', 'diff', 'task-1', 'task-2', '--json'));
    expect(diff).toMatchObject({
      ok: true,
      outcome: 'diff',
      diff: { items: [{ source: 'episodes', id: 'task-1', change: 'added' }] },
    });
  });

  it('--verified adds verified memories checked against the git repository around the working directory', async () => {
    const repoDir = join(work, 'repo');
    makeRepository(repoDir, { 'src/constants.ts': '// constants\nexport const API_VERSION = 3;\n' });
    const inRepo = (...args: string[]) => cli([...args, '--repo', REPO, '--store', store], { cwd: repoDir });
    const stored = await inRepo(
      'memories',
      'store',
      '--subject',
      'API version',
      '--fact',
      'API_VERSION lives in src/constants.ts',
      '--cite',
      'src/constants.ts:2',
      '--json',
    );
    expect(stored.code).toBe(0);
    const context = jsonOf(await inRepo('context', '--task', 'bump the API version', '--verified', '--json'));
    expect(context).toMatchObject({ ok: true, status: 'ok', context: { verified: [{ subject: 'API version' }] } });
    expect(context.markdown).toContain('### Verified facts (checked against the code)');
  });

  it('works on a memory directory too', async () => {
    const dir = join(work, 'memory');
    const inDir = (...args: string[]) => cli([...args, '--repo', REPO, '--dir', dir], { cwd: work });
    expect((await cli(['init', '--dir', dir], { cwd: work })).code).toBe(0);
    expect((await inDir('learnings', 'add', '--text', '**CI:** Integration tests need Docker.')).code).toBe(0);
    const context = await inDir('context', '--task', 'CI docker tests');
    expect(context.stdout).toContain('Integration tests need Docker.');
  });

  it('prefs list and set by hand', async () => {
    await run('prefs', 'set', '--user', 'carol', '--text', 'Comprehensive PRs with docs', '--topic', 'pr-size');
    const listed = jsonOf(await run('prefs', 'list', '--user', 'carol', '--json'));
    expect(listed).toMatchObject({ ok: true, preferences: [{ id: 'users/carol/pr-size' }] });
  });

  it('an app and a user whose logins an id mapping could fold never share preferences', async () => {
    expect(
      (await run('prefs', 'set', '--user', 'renovate[bot]', '--text', 'One package per PR.', '--topic', 'pr-size'))
        .code,
    ).toBe(0);
    const user = jsonOf(
      await run('context', '--task', 'bump the packages, pr size', '--user', 'renovate-bot', '--json'),
    );
    expect(user).toMatchObject({ ok: true, context: { preferences: [] } });
    const app = jsonOf(
      await run('context', '--task', 'bump the packages, pr size', '--user', 'renovate[bot]', '--json'),
    );
    expect(app).toMatchObject({ context: { preferences: [{ id: 'users/renovate@bot/pr-size' }] } });
  });

  it('reports misuse clearly: missing arguments, bad status, unknown receipt, nothing new', async () => {
    expect((await run('context')).code).toBe(1);
    expect((await run('context', '--task', 'x', '--record')).stderr).toContain('--record needs --task-id');
    expect((await run('context', '--task', 'x', '--note-rules')).stderr).toContain('--note-rules needs --task-id');
    expect(jsonOf(await run('context', '--task', 'x', '--task-id', 't-9', '--note-rules', '--json'))).toMatchObject({
      ok: true,
      errors: [],
    });
    expect(
      jsonOf(await run('context', '--task', 'x', '--task-id', 't-10', '--note-rules', '--rule-expiry', '3', '--json')),
    ).toMatchObject({ ok: true, errors: [] });
    expect((await run('context', '--task', 'x', '--rule-expiry', '3')).stderr).toContain(
      '--rule-expiry needs --note-rules',
    );
    expect((await run('context', '--task', 'x', '--task-id', 't', '--note-rules', '--rule-expiry', '0')).code).toBe(1);
    const bad = await run('episode', 'write', '--task-id', 't', '--status', 'done', '--json');
    expect(jsonOf(bad)).toMatchObject({ ok: false, code: 'INVALID_ARGUMENT' });
    const missing = await run('context', 'receipts', '--task', 'nope', '--json');
    expect(missing.code).toBe(2);
    expect(jsonOf(missing)).toMatchObject({ ok: false, outcome: 'not_found' });
    expect(jsonOf(await run('learnings', 'add', '--text', 'No new repository learnings.', '--json'))).toMatchObject({
      outcome: 'none',
    });
    expect((await run('learnings', 'add')).code).toBe(1);
    expect((await cli(['context', '--help'], { cwd: work })).stdout).toContain('Usage: repomem context');
  });
});
