// Why: `repomem sync github` in-process against the loopback GitHub API: the summary line, the
// `--json` summary, the request cap, the environment's token and endpoints, argument errors, a
// missing repository, and the legacy migration's dry run and apply, on real stores.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateRepository, type LoopbackGitHub, startLoopbackGitHub } from '@repomem/github/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, jsonOf } from './in-process.js';

let github: LoopbackGitHub;
let cwd: string;
let env: Record<string, string>;

beforeEach(async () => {
  github = await startLoopbackGitHub();
  github.data.addRepository(generateRepository({ owner: 'acme', name: 'app', issues: 150, pullRequests: 10, seed: 2 }));
  cwd = mkdtempSync(join(tmpdir(), 'repomem-sync-cli-'));
  env = { GITHUB_TOKEN: 'loopback-token', GITHUB_API_URL: github.url, GITHUB_GRAPHQL_URL: github.graphqlUrl };
});
afterEach(async () => {
  await github.close();
  rmSync(cwd, { recursive: true, force: true });
});

describe('repomem sync github', () => {
  it('mirrors into the chosen store and prints one summary line', async () => {
    const result = await cli(['sync', 'github', '--repo', 'acme/app', '--store', 'sqlite:mem.db'], { cwd, env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^synced acme\/app: 160 items \(150 issues, 10 pull requests, 0 discussions\), 160 files changed in github\/acme\/app\/, 2 requests, quota [\d,]+\/5,000 left\nnote: created the memory tree's daily\/\.gitkeep, github\/\.gitkeep, PROJECT\.md, MEMORY\.md, README\.md\nnote: acme\/app has discussions disabled: discussions skipped\n$/,
    );
    const search = await cli(['search', '--store', 'sqlite:mem.db', '--repo', 'acme/app', '--json', 'mirror'], {
      cwd,
      env,
    });
    expect(search.code).toBe(0);
  });

  it('takes GH_TOKEN and GITHUB_REPOSITORY, caps requests, and reports as JSON', async () => {
    const environment = { GH_TOKEN: 'loopback-token', GITHUB_API_URL: github.url, GITHUB_REPOSITORY: 'acme/app' };
    const stopped = jsonOf(
      await cli(['sync', 'github', '--dir', 'memory', '--max-requests', '1', '--json'], { cwd, env: environment }),
    );
    expect(stopped).toMatchObject({ ok: false, status: 'interrupted', reason: 'max_requests', requests: 1 });
    const finished = jsonOf(await cli(['sync', 'github', '--dir', 'memory', '--json'], { cwd, env: environment }));
    expect(finished).toMatchObject({ ok: true, status: 'complete', repo: 'acme/app' });
    expect((finished.items as { issues: number }).issues).toBeGreaterThanOrEqual(50);
  });

  it.each([
    ['a missing memory directory', ['--dir', 'memory']],
    ['a missing SQLite file', ['--store', 'sqlite:mem.db']],
    ['a git repository without the memory branch', ['--store', 'git:.']],
  ])('bootstraps %s with the anchor files, as Sepo’s sync workflow does', async (_name, where) => {
    if (where[1] === 'git:.') {
      const { execFileSync } = await import('node:child_process');
      execFileSync('git', ['init', '-q', '-b', 'main', cwd]);
    }
    const synced = await cli(['sync', 'github', '--repo', 'acme/app', ...where], { cwd, env });
    expect(synced.stderr).toBe('');
    expect(synced.code).toBe(0);
    expect(synced.stdout).toContain(
      "note: created the memory tree's daily/.gitkeep, github/.gitkeep, PROJECT.md, MEMORY.md, README.md\n",
    );
    // `init` finds every anchor present (on git it may add its own .gitignore).
    const anchors = ['daily/.gitkeep', 'github/.gitkeep', 'PROJECT.md', 'MEMORY.md', 'README.md'];
    const init = jsonOf(await cli(['init', ...where, '--repo', 'acme/app', '--json'], { cwd, env })) as {
      created: string[];
      existing: string[];
    };
    expect(init.created.filter((path) => anchors.includes(path))).toEqual([]);
    expect(init.existing).toEqual(expect.arrayContaining(anchors));
    // Once bootstrapped, later syncs say nothing about it.
    const again = await cli(['sync', 'github', '--repo', 'acme/app', ...where], { cwd, env });
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('created the memory tree');
  });

  it('explains argument problems, a missing token and a missing repository', async () => {
    const noSource = await cli(['sync', '--repo', 'acme/app'], { cwd, env });
    expect(noSource.code).toBe(1);
    expect(noSource.stderr).toMatch(/missing what to sync/);
    const malformed = await cli(['sync', 'github', '--repo', 'acme'], { cwd, env });
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/invalid repository "acme": expected OWNER\/NAME/);
    const noToken = await cli(['sync', 'github', '--repo', 'acme/app', '--store', 'sqlite:mem.db'], {
      cwd,
      env: { GITHUB_API_URL: github.url },
    });
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toMatch(/no GitHub token/);
    const missing = await cli(['sync', 'github', '--repo', 'acme/none', '--store', 'sqlite:mem.db', '--json'], {
      cwd,
      env,
    });
    expect(missing.code).toBe(2);
    expect(jsonOf(missing)).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    const help = await cli(['sync', '--help'], { cwd, env });
    expect(help.stdout).toMatch(/^Usage: repomem sync github/);
  });

  it("writes cursors Sepo's read-sync-state reads, on the git store", async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync('git', ['init', '-q', '-b', 'main', cwd]);
    const synced = await cli(['sync', 'github', '--repo', 'acme/app', '--store', 'git:.'], { cwd, env });
    expect(synced.code).toBe(0);
    const read = await cli(['read-sync-state'], { cwd, env: { GITHUB_REPOSITORY: 'acme/app' } });
    expect(read.code).toBe(0);
    const state = JSON.parse(read.stdout) as {
      repo_slug: string;
      cursors: Record<string, string>;
      last_activity_at: string;
    };
    expect(state.repo_slug).toBe('acme/app');
    expect(state.cursors.issues).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(state.cursors.pulls).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(state.last_activity_at).not.toBe('');
    const files = execFileSync('git', ['-C', cwd, 'ls-tree', '-r', '--name-only', 'agent/memory', 'github/acme/app/'])
      .toString()
      .trim()
      .split('\n');
    expect(files).toHaveLength(160);
  });

  it('exits 2 naming the permission a token lacks', async () => {
    const limited = await startLoopbackGitHub({
      tokens: [{ token: 'no-pulls', permissions: { pullRequests: 'none' } }],
    });
    try {
      limited.data.addRepository(
        generateRepository({ owner: 'acme', name: 'app', issues: 2, pullRequests: 1, seed: 2 }),
      );
      const result = await cli(['sync', 'github', '--repo', 'acme/app', '--store', 'sqlite:mem.db'], {
        cwd,
        env: { GITHUB_TOKEN: 'no-pulls', GITHUB_API_URL: limited.url },
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /cannot read pullRequests of acme\/app .*give it the permission Pull requests: read\n$/,
      );
    } finally {
      await limited.close();
    }
  });

  it('moves a flat legacy layout only with --apply', async () => {
    await cli(['init', '--dir', 'memory'], { cwd, env: {} });
    const { writeFileSync, existsSync } = await import('node:fs');
    writeFileSync(join(cwd, 'memory/github/issue-7.json'), '{"number": 7}\n');
    const plan = await cli(['sync', 'github', '--repo', 'acme/app', '--dir', 'memory', '--migrate-legacy'], {
      cwd,
      env,
    });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toBe(
      'move: github/issue-7.json -> github/acme/app/issue-7.json\ndry run: nothing changed; run again with --apply to migrate 1 file\n',
    );
    expect(existsSync(join(cwd, 'memory/github/issue-7.json'))).toBe(true);
    const applied = await cli(
      ['sync', 'github', '--repo', 'acme/app', '--dir', 'memory', '--migrate-legacy', '--apply'],
      {
        cwd,
        env,
      },
    );
    expect(applied.stdout).toMatch(/migrated 1 file\n$/);
    expect(existsSync(join(cwd, 'memory/github/acme/app/issue-7.json'))).toBe(true);
    expect(existsSync(join(cwd, 'memory/github/issue-7.json'))).toBe(false);
  });
});
