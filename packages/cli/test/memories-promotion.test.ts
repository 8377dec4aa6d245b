// Why: issue 26's first reproduction as a user meets it, through `runCli` on a real git repository
// and a SQLite file: `memories store` on branch `feature` records `learned_on` (no extra flags),
// `memories promote` after a real merge moves it to main's scope re-verified at the merge commit
// (and changes nothing when run again), and a branch whose pull request closed unmerged is
// quarantined, listed and deleted; plus each class of bad input.
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, cli, commitFiles, git, jsonOf, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-promotion-');
afterAll(() => temp.remove());

const REPO = 'acme/app';
const NET = ['export const TIMEOUT_MS = 500;', 'export const RETRIES = 3;', ''].join('\n');
const IDENTITY = ['-c', 'user.name=CLI Test', '-c', 'user.email=cli@example.com'];

let counter = 0;
let repoDir: string;
let db: string;

const memories = (args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> =>
  cli(['memories', ...args, '--repo', REPO, '--store', `sqlite:${db}`], { cwd: repoDir, env });

beforeEach(() => {
  counter += 1;
  repoDir = join(temp.path, `case${counter}`, 'repo');
  db = join(temp.path, `case${counter}`, 'memories.db');
  makeRepository(repoDir, { 'README.md': '# app\n' });
});

async function store(subject: string, cite: string, extra: readonly string[] = [], env: Record<string, string> = {}) {
  const result = await memories(
    ['store', '--subject', subject, '--fact', `${subject}.`, '--cite', cite, '--json', ...extra],
    env,
  );
  expect(result.code, result.stderr).toBe(0);
  return (jsonOf(result) as { memory: { id: string; learned_on?: { ref: string; commit: string } } }).memory;
}

describe('memories promote, quarantine, quarantined, delete-quarantined', () => {
  it('a memory stored on feature records learned_on; promote after the merge moves it to main, valid', async () => {
    git(repoDir, 'checkout', '-q', '-b', 'feature');
    commitFiles(repoDir, { 'src/net.ts': NET }, 'add the network client');
    const featureCommit = git(repoDir, 'rev-parse', 'HEAD').trim();
    const memory = await store('network timeout', 'src/net.ts:1');
    expect(memory.learned_on).toEqual({ ref: 'feature', commit: featureCommit });

    git(repoDir, 'checkout', '-q', 'main');
    commitFiles(repoDir, { 'docs/notes.md': 'main moved on\n' }, 'main moves on');
    git(repoDir, ...IDENTITY, 'merge', '-q', '--no-ff', '-m', 'Merge pull request #7 from feature', 'feature');
    const merge = git(repoDir, 'rev-parse', 'HEAD').trim();

    const promoted = await memories(['promote', '--ref', 'feature', '--merge-commit', merge, '--pr', '7']);
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toContain(`promoted 1 record from feature into main at ${merge} (pull request #7)`);
    expect(promoted.stdout).toContain(`memory ${memory.id}  network timeout  valid at the merge commit`);
    const got = jsonOf(await memories(['get', '--id', memory.id, '--json'])) as {
      memory: { learned_on: unknown; promoted_from: unknown; verification_count: number };
    };
    expect(got.memory.learned_on).toEqual({ ref: 'main', commit: merge });
    expect(got.memory.promoted_from).toEqual({ ref: 'feature', commit: featureCommit, pull_request: 7 });
    expect(got.memory.verification_count).toBe(1);

    const again = await memories(['promote', '--ref', 'feature', '--merge-commit', merge, '--json']);
    expect(jsonOf(again)).toMatchObject({ ok: true, outcome: 'promoted', promoted: [] });
    // main serves it now: verify --all on main keeps it.
    expect(jsonOf(await memories(['verify', '--all', '--json']))).toMatchObject({ ok: true });
    expect((jsonOf(await memories(['recent', '--json'])) as { memories: { id: string }[] }).memories).toHaveLength(1);
  });

  it('--commit names the commit explicitly; in Actions the branch comes from GITHUB_HEAD_REF', async () => {
    git(repoDir, 'checkout', '-q', '--detach', 'HEAD');
    const head = git(repoDir, 'rev-parse', 'HEAD').trim();
    const fromEnv = await store('readme', 'README.md:1', [], { GITHUB_HEAD_REF: 'feature/ci' });
    expect(fromEnv.learned_on).toEqual({ ref: 'feature/ci', commit: head });
    const explicit = await store('readme title', 'README.md:1', ['--commit', 'ABCDEF1'], { GITHUB_HEAD_REF: 'x' });
    expect(explicit.learned_on).toEqual({ ref: 'x', commit: 'abcdef1' });
    // Detached, outside Actions: no branch, so nothing is recorded (the default branch's scope).
    const plain = await store('readme heading', 'README.md:1');
    expect(plain.learned_on).toBeUndefined();
  });

  it('a closed branch is quarantined: not served, listed, then deleted', async () => {
    git(repoDir, 'checkout', '-q', '-b', 'abandoned');
    commitFiles(repoDir, { 'src/cache.ts': 'export const TTL = 60;\n' }, 'add a cache');
    const memory = await store('cache ttl', 'src/cache.ts:1');
    const quarantined = await memories(['quarantine', '--ref', 'abandoned', '--pr', '8']);
    expect(quarantined.code, quarantined.stderr).toBe(0);
    expect(quarantined.stdout).toContain('quarantined 1 record learned on abandoned (pull request #8)');
    expect((jsonOf(await memories(['recent', '--json'])) as { memories: unknown[] }).memories).toEqual([]);
    expect((await memories(['quarantine', '--ref', 'abandoned', '--json'])).stdout).toContain('"quarantined":[]');

    const listed = await memories(['quarantined']);
    expect(listed.stdout).toContain(`memory ${memory.id}  cache ttl  [abandoned at`);
    const listedJson = jsonOf(await memories(['quarantined', '--ref', 'abandoned', '--json'])) as {
      records: { id: string }[];
    };
    expect(listedJson.records.map((record) => record.id)).toEqual([memory.id]);

    const deleted = await memories(['delete-quarantined', '--id', memory.id]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain('deleted 1 quarantined record');
    expect((await memories(['get', '--id', memory.id])).code).toBe(2);
    expect((await memories(['quarantined'])).stdout).toBe('no quarantined records\n');
  });

  it('learnings add and episode write record the branch too, and promote moves them with the memories', async () => {
    git(repoDir, 'checkout', '-q', '-b', 'feature/ci');
    commitFiles(repoDir, { 'ci.yml': 'docker: true\n' }, 'ci');
    const head = git(repoDir, 'rev-parse', 'HEAD').trim();
    const store = ['--repo', REPO, '--store', `sqlite:${db}`];
    const learned = await cli(['learnings', 'add', '--text', '**CI:** Integration tests need Docker.', ...store], {
      cwd: repoDir,
    });
    expect(learned.code, learned.stderr).toBe(0);
    const episode = await cli(
      ['episode', 'write', '--task-id', 'task-1', '--status', 'completed', '--json', ...store],
      { cwd: repoDir },
    );
    expect((jsonOf(episode) as { episode: { data: { learned_on: unknown } } }).episode.data.learned_on).toEqual({
      ref: 'feature/ci',
      commit: head,
    });
    const quarantined = jsonOf(await memories(['quarantine', '--ref', 'feature/ci', '--json'])) as {
      quarantined: { kind: string }[];
    };
    // The episode stays served: it records the attempt and its outcome, on every branch.
    expect(quarantined.quarantined.map((record) => record.kind).sort()).toEqual(['knowledge']);
  });

  it.each([
    [['promote', '--merge-commit', 'abcdef1'], '--ref is required for memories promote'],
    [['promote', '--ref', 'feature'], '--merge-commit is required for memories promote'],
    [['promote', '--ref', 'feature', '--merge-commit', 'not-hex'], 'invalid merge commit'],
    [['promote', '--ref', 'feature x', '--merge-commit', 'abcdef1'], 'is not a branch name'],
    [['promote', '--ref', 'main', '--merge-commit', 'abcdef1', '--into', 'main'], 'cannot promote main into itself'],
    [['quarantine', '--ref', 'f', '--pr', 'seven'], '--pr must be a positive integer'],
    [['delete-quarantined'], 'needs exactly one of --id <id> or --ref <branch>'],
    [['quarantined', '--pr', '3'], 'option --pr does not apply to memories quarantined'],
    [['store', '--subject', 'S', '--fact', 'F', '--cite', 'README.md:1', '--commit', 'HEAD~1'], 'invalid learnedOn'],
  ])('refuses %j', async (args, message) => {
    const result = await memories(args);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(message);
  });
});
