// Why: `repomem sync github` and `repomem gate scan` take the repository from the clone's origin
// remote when neither --repo nor $GITHUB_REPOSITORY names one, like every other command, and say
// which repository was used (once, on stderr); outside such a clone sync still asks for --repo.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, git, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-origin-');
afterAll(() => temp.remove());

const NOTICE =
  /^repomem: repository acme\/shop \(from the origin remote git@github\.com:acme\/shop\.git; --repo or \$GITHUB_REPOSITORY names another\)\n/;

let counter = 0;
/** A git repository whose origin remote is github.com/acme/shop. */
function clone(): string {
  const dir = join(temp.path, `clone-${++counter}`);
  makeRepository(dir, { 'README.md': '# shop\n' });
  git(dir, 'remote', 'add', 'origin', 'git@github.com:acme/shop.git');
  return dir;
}

describe('repomem sync github without --repo', () => {
  it('mirrors the repository the origin remote names, and says so', async () => {
    const dir = clone();
    expect((await cli(['init', '--dir', 'memory'], { cwd: dir, env: {} })).code).toBe(0);
    writeFileSync(join(dir, 'memory/github/issue-7.json'), '{"number": 7}\n');
    const plan = await cli(['sync', 'github', '--dir', 'memory', '--migrate-legacy'], { cwd: dir, env: {} });
    expect(plan.code).toBe(0);
    expect(plan.stderr).toMatch(NOTICE);
    expect(plan.stdout).toContain('move: github/issue-7.json -> github/acme/shop/issue-7.json\n');
  });

  it('--repo and $GITHUB_REPOSITORY win silently; outside a clone --repo is still required', async () => {
    const dir = clone();
    await cli(['init', '--dir', 'memory'], { cwd: dir, env: {} });
    writeFileSync(join(dir, 'memory/github/issue-8.json'), '{"number": 8}\n');
    const fromEnv = await cli(['sync', 'github', '--dir', 'memory', '--migrate-legacy'], {
      cwd: dir,
      env: { GITHUB_REPOSITORY: 'acme/other' },
    });
    expect(fromEnv.stderr).toBe('');
    expect(fromEnv.stdout).toContain('github/acme/other/issue-8.json');
    const outside = join(temp.path, 'not-a-clone');
    const missing = await cli(['sync', 'github', '--dir', outside, '--migrate-legacy'], { cwd: temp.path, env: {} });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^missing --repo OWNER\/NAME \(or \$GITHUB_REPOSITORY, or a clone whose origin remote names it\)\n\nUsage: repomem sync/,
    );
  });
});

describe('repomem gate scan without $GITHUB_REPOSITORY', () => {
  async function writeState(dir: string, ref: 'sync' | 'scan', repo: string, fields: Record<string, string>) {
    const now = '2026-11-24T00:00:00Z';
    const common = { schema_version: 1, repo_slug: repo, last_run_url: '', created_at: now, updated_at: now };
    const state =
      ref === 'sync'
        ? { ...common, last_sync_at: now, last_activity_at: '', cursors: {}, ...fields }
        : { ...common, last_scan_at: '', ...fields };
    const result = await cli(
      ['state', 'write', '--ref', ref, '--state', JSON.stringify(state), '--store', `git:${dir}`],
      {
        cwd: dir,
        env: { GITHUB_REPOSITORY: repo },
      },
    );
    expect(result.stderr).toBe('');
  }

  async function scan(dir: string) {
    const output = join(dir, '..', `output-${++counter}`);
    writeFileSync(output, '');
    const result = await cli(['gate', 'scan'], {
      cwd: dir,
      env: { GITHUB_EVENT_NAME: 'schedule', GITHUB_WORKSPACE: dir, GITHUB_OUTPUT: output },
    });
    return { ...result, outputs: readFileSync(output, 'utf8') };
  }

  it("reads the origin remote's repository's state (and says so); another repository's state is ignored", async () => {
    const dir = clone();
    await writeState(dir, 'sync', 'acme/shop', { last_activity_at: '2026-11-24T10:00:00Z' });
    await writeState(dir, 'scan', 'acme/shop', { last_scan_at: '2026-11-24T11:00:00Z' });
    const same = await scan(dir);
    expect(same.code).toBe(0);
    expect(same.stderr).toMatch(NOTICE);
    expect(same.outputs).toContain('reason=no_new_activity\n');

    const other = clone();
    await writeState(other, 'sync', 'other/repo', { last_activity_at: '2026-11-24T10:00:00Z' });
    await writeState(other, 'scan', 'other/repo', { last_scan_at: '2026-11-24T11:00:00Z' });
    const ignored = await scan(other);
    expect(ignored.stderr).toMatch(NOTICE);
    expect(ignored.outputs).toContain('run=true\n');
  });
});
