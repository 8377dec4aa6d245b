// Why: issue 26's branch scope as a user meets it, through `runCli` on a real git repository and
// SQLite file: a memory learned on `feature` about a file the branch adds is out of scope on
// `main` (verify says so and changes nothing; verify --all neither serves nor invalidates it),
// served on `feature` and with `--ref feature`, and in Actions the branch comes from
// `GITHUB_HEAD_REF`. After the merge and a `git mv`, verify keeps a memory, re-anchored.
import { join } from 'node:path';
import { recordLearnings } from '@repomem/core';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { cliRegistry } from '../src/store-registry.js';
import { workingBranch } from '../src/working-branch.js';
import { type CliResult, cli, commitFiles, git, jsonOf, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-scope-');
afterAll(() => temp.remove());

const REPO = 'acme/app';
const NET = ['export const TIMEOUT_MS = 500;', 'export const RETRIES = 3;', ''].join('\n');

let counter = 0;
let repoDir: string;
let db: string;

const memories = (args: readonly string[], env: Record<string, string> = {}): Promise<CliResult> =>
  cli(['memories', ...args, '--repo', REPO, '--store', `sqlite:${db}`], { cwd: repoDir, env });

/** Store a memory, then record where it was learned as item 1 of issue 26 does (HEAD's branch and commit). */
async function storeOnBranch(subject: string, cite: string, branch: string): Promise<string> {
  const result = await memories(['store', '--subject', subject, '--fact', `${subject}.`, '--cite', cite, '--json']);
  expect(result.code).toBe(0);
  const id = (jsonOf(result) as { memory: { id: string } }).memory.id;
  const resolved = await cliRegistry.resolveStoreSpec(`sqlite:${db}`, { cwd: repoDir, env: {} });
  const backend = await cliRegistry.openVerifiedBackend(resolved, {
    cwd: repoDir,
    env: {},
    repo: REPO,
    readOnly: false,
  });
  try {
    const memory = await backend.get(REPO, id);
    if (memory === undefined) throw new Error('stored memory not found');
    const commit = git(repoDir, 'rev-parse', 'HEAD').trim();
    const applied = await backend.apply(
      [
        {
          record: { ...memory, learned_on: { ref: branch, commit }, revision: memory.revision + 1 },
          expectedRevision: memory.revision,
        },
      ],
      [],
    );
    expect(applied.ok).toBe(true);
  } finally {
    await backend.close();
  }
  return id;
}

beforeEach(() => {
  counter += 1;
  repoDir = join(temp.path, `case${counter}`, 'repo');
  db = join(temp.path, `case${counter}`, 'memories.db');
  makeRepository(repoDir, { 'README.md': '# app\n' });
});

describe('branch scope through the CLI', () => {
  it('a memory learned on a branch is out of scope on main: not served, not invalidated', async () => {
    git(repoDir, 'checkout', '-q', '-b', 'feature');
    commitFiles(repoDir, { 'src/net.ts': NET }, 'add the network client');
    const id = await storeOnBranch('network timeout', 'src/net.ts:1', 'feature');
    git(repoDir, 'checkout', '-q', 'main');

    const one = await memories(['verify', '--id', id]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(
      new RegExp(
        `^out of scope ${id}: network timeout \\(out of scope: learned on feature at [0-9a-f]{40}, which main does not contain; not verified, unchanged\\)\\n$`,
      ),
    );
    const all = await memories(['verify', '--all', '--json']);
    expect(all.code).toBe(0);
    expect(jsonOf(all)).toMatchObject({ verified: [], invalidated: [], out_of_scope: 1 });
    expect(jsonOf(await memories(['get', '--id', id, '--json']))).toMatchObject({ memory: { status: 'active' } });
    expect(jsonOf(await memories(['search', 'network', '--json']))).toMatchObject({ memories: [] });

    // Named explicitly, or as the pull request's head branch in Actions: served.
    const explicit = await memories(['verify', '--all', '--ref', 'feature', '--json']);
    expect(jsonOf(explicit)).toMatchObject({ verified: [{ id }], out_of_scope: 0 });
    const actions = await memories(['search', 'network', '--json'], { GITHUB_HEAD_REF: 'feature' });
    expect(jsonOf(actions)).toMatchObject({ memories: [{ id }] });
  });

  it('memories search --ref names the branch listed', async () => {
    git(repoDir, 'checkout', '-q', '-b', 'feature');
    commitFiles(repoDir, { 'src/net.ts': NET }, 'add the network client');
    const id = await storeOnBranch('network timeout', 'src/net.ts:1', 'feature');
    git(repoDir, 'checkout', '-q', 'main');
    expect(jsonOf(await memories(['search', 'network', '--json']))).toMatchObject({ memories: [] });
    expect(jsonOf(await memories(['search', 'network', '--ref', 'feature', '--json']))).toMatchObject({
      memories: [{ id }],
    });
    // An explicit --ref wins over the environment's branch.
    const overridden = await memories(['search', 'network', '--ref', 'main', '--json'], { GITHUB_HEAD_REF: 'feature' });
    expect(jsonOf(overridden)).toMatchObject({ memories: [] });
  });

  it('memories recent --ref names the branch listed', async () => {
    git(repoDir, 'checkout', '-q', '-b', 'feature');
    commitFiles(repoDir, { 'src/net.ts': NET }, 'add the network client');
    const id = await storeOnBranch('network timeout', 'src/net.ts:1', 'feature');
    git(repoDir, 'checkout', '-q', 'main');
    expect(jsonOf(await memories(['recent', '--json']))).toMatchObject({ memories: [] });
    expect(jsonOf(await memories(['recent', '--ref', 'feature', '--json']))).toMatchObject({ memories: [{ id }] });
    const overridden = await memories(['recent', '--ref', 'main', '--json'], { GITHUB_HEAD_REF: 'feature' });
    expect(jsonOf(overridden)).toMatchObject({ memories: [] });
  });

  it('after the merge main serves it, and a git mv re-anchors a memory instead of invalidating it', async () => {
    git(repoDir, 'checkout', '-q', '-b', 'feature');
    commitFiles(repoDir, { 'src/net.ts': NET }, 'add the network client');
    const first = await storeOnBranch('network timeout', 'src/net.ts:1', 'feature');
    git(repoDir, 'checkout', '-q', 'main');
    git(repoDir, 'merge', '-q', '--no-ff', '-m', 'merge feature', 'feature');
    const second = await storeOnBranch('network retries', 'src/net.ts:2', 'main');
    git(repoDir, 'mv', 'src/net.ts', 'src/network.ts');
    git(repoDir, 'commit', '-q', '-m', 'rename the network client');
    const all = await memories(['verify', '--all', '--json']);
    expect(all.code).toBe(0);
    const json = jsonOf(all) as { verified: { id: string; citations: { path: string }[] }[]; invalidated: [] };
    expect(json.invalidated).toEqual([]);
    expect(json.verified.map((memory) => memory.id).sort()).toEqual([first, second].sort());
    expect(json.verified.every((memory) => memory.citations[0]?.path === 'src/network.ts')).toBe(true);
  });
});

describe('repomem context in branch scope', () => {
  it('offers a learning of a branch on that branch and leaves it out on main', async () => {
    git(repoDir, 'checkout', '-q', '-b', 'feature');
    commitFiles(repoDir, { 'src/net.ts': NET }, 'add the network client');
    const commit = git(repoDir, 'rev-parse', 'HEAD').trim();
    const backend = await cliRegistry.openTaskRecordBackend(`sqlite:${db}`, { cwd: repoDir, env: {}, repo: REPO });
    try {
      await recordLearnings({
        backend,
        repo: REPO,
        learnings: '**[Network timeout]:** The network client in src/net.ts times out after 500 ms.',
      });
      const [record] = await backend.list({ repo: REPO, kind: 'knowledge' });
      if (record === undefined) throw new Error('no learning recorded');
      const learned = { ...record.data, learned_on: { ref: 'feature', commit } };
      const applied = await backend.apply([
        { record: { ...record, data: learned, revision: record.revision + 1 }, expectedRevision: record.revision },
      ]);
      expect(applied.ok).toBe(true);
    } finally {
      await backend.close();
    }
    const context = (env: Record<string, string> = {}) =>
      cli(['context', '--task', 'network timeout', '--repo', REPO, '--store', `sqlite:${db}`, '--json'], {
        cwd: repoDir,
        env,
      });
    const subjects = (result: CliResult) =>
      ((jsonOf(result) as { context: { knowledge: { subject: string }[] } }).context.knowledge ?? []).map(
        (entry) => entry.subject,
      );
    expect(subjects(await context())).toEqual(['Network timeout']);
    git(repoDir, 'checkout', '-q', 'main');
    expect(subjects(await context())).toEqual([]);
    expect(subjects(await context({ GITHUB_HEAD_REF: 'feature' }))).toEqual(['Network timeout']);
    const explicit = await cli(
      ['context', '--task', 'network timeout', '--repo', REPO, '--store', `sqlite:${db}`, '--ref', 'feature', '--json'],
      { cwd: repoDir },
    );
    expect(subjects(explicit)).toEqual(['Network timeout']);
  });
});

describe('workingBranch', () => {
  it('takes GITHUB_HEAD_REF, else a GITHUB_REF naming a branch, else nothing', () => {
    expect(workingBranch({ GITHUB_HEAD_REF: 'feature/x', GITHUB_REF: 'refs/pull/3/merge' })).toBe('feature/x');
    expect(workingBranch({ GITHUB_REF: 'refs/heads/release/1.2' })).toBe('release/1.2');
    expect(workingBranch({ GITHUB_REF: 'refs/tags/v1' })).toBeUndefined();
    expect(workingBranch({ GITHUB_HEAD_REF: '', GITHUB_REF: 'refs/pull/3/merge' })).toBeUndefined();
    expect(workingBranch({})).toBeUndefined();
  });

  it('refuses an environment value that is not a branch name, naming the variable', async () => {
    expect(() => workingBranch({ GITHUB_HEAD_REF: 'bad..name' })).toThrow(
      /\$GITHUB_HEAD_REF "bad\.\.name" is not a branch name/,
    );
    const result = await memories(['verify', '--all'], { GITHUB_HEAD_REF: 'bad..name' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('GITHUB_HEAD_REF');
  });
});
