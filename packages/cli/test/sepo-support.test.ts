// Why: Sepo's support CLIs and `envelope --from-event` take Sepo's arguments and environment and
// give Sepo's outputs (stdout shapes, $GITHUB_OUTPUT step outputs, exit codes), on real git
// repositories and recorded event payloads, so a workflow step switches binaries by one word.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, git, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-sepo-');
afterAll(() => temp.remove());

let counter = 0;
function repository(): string {
  const dir = join(temp.path, `repo-${++counter}`);
  makeRepository(dir, { 'README.md': '# app\n' });
  return dir;
}

function outputs(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) out[line.slice(0, at)] = line.slice(at + 1);
  }
  return out;
}

function outputFile(): string {
  const file = join(temp.path, `output-${++counter}`);
  writeFileSync(file, '');
  return file;
}

describe('repomem bootstrap-branch', () => {
  it("creates the branch without touching the checkout, then only completes it (Sepo's JSON)", async () => {
    const dir = repository();
    git(dir, 'remote', 'add', 'origin', 'https://github.com/acme/app.git');
    const first = await cli(['bootstrap-branch'], { cwd: dir });
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      repoRoot: dir,
      repo: 'acme/app',
      branch: 'agent/memory',
      remote: 'origin',
      createdBranch: true,
      committed: true,
      migratedFiles: [],
      nextStep: 'git push origin agent/memory',
    });
    expect(report.createdFiles).toEqual(expect.arrayContaining(['MEMORY.md', 'PROJECT.md']));
    expect(git(dir, 'branch', '--show-current').trim()).toBe('main');
    expect(git(dir, 'ls-tree', '--name-only', 'agent/memory')).toContain('MEMORY.md');
    const again = await cli(['bootstrap-branch', '--repo', 'acme/app'], { cwd: dir });
    expect(JSON.parse(again.stdout)).toMatchObject({ createdBranch: false, committed: false, createdFiles: [] });
  });

  it('refuses to start a second history when only the remote-tracking branch exists (exit 1)', async () => {
    const dir = repository();
    git(dir, 'update-ref', 'refs/remotes/origin/agent/memory', 'HEAD');
    const result = await cli(['bootstrap-branch', '--repo', 'acme/app'], { cwd: dir });
    expect([result.code, result.stdout]).toEqual([1, '']);
    expect(result.stderr).toContain('git branch agent/memory origin/agent/memory');
  });

  it('refuses a missing slug and a checked-out memory branch (exit 1)', async () => {
    const dir = repository();
    const noSlug = await cli(['bootstrap-branch'], { cwd: dir });
    expect(noSlug.code).toBe(1);
    expect(noSlug.stderr).toMatch(/^Missing or invalid repository slug \(got: empty\)\./);
    git(dir, 'checkout', '-q', '-b', 'mem');
    const checkedOut = await cli(['bootstrap-branch', '--repo', 'acme/app', '--branch', 'mem'], { cwd: dir });
    expect(checkedOut.code).toBe(1);
    expect(checkedOut.stderr).toBe(
      'Branch mem is already checked out in the current worktree.\nSwitch to another branch before rerunning bootstrap.\n',
    );
  });
});

describe('repomem read-sync-state / write-sync-state', () => {
  it('reads nothing as {}, writes the SYNC_* cursors, reads them back as step outputs', async () => {
    const dir = repository();
    const env = { GITHUB_REPOSITORY: 'acme/app', GITHUB_WORKSPACE: dir };
    const empty = outputFile();
    const none = await cli(['read-sync-state'], { cwd: temp.path, env: { ...env, GITHUB_OUTPUT: empty } });
    expect([none.code, none.stdout]).toEqual([0, '{}\n']);
    expect(outputs(empty)).toMatchObject({ found: 'false', issue_cursor: '', last_sync_at: '' });

    const written = outputFile();
    const write = await cli(['write-sync-state'], {
      cwd: dir,
      env: {
        ...env,
        GITHUB_OUTPUT: written,
        SYNC_LAST_SYNC_AT: '2026-03-01T00:00:00Z',
        SYNC_ISSUE_CURSOR: '2026-02-28T23:00:00Z',
        SYNC_LAST_RUN_URL: 'https://github.com/acme/app/actions/runs/1',
      },
    });
    expect(write.code).toBe(0);
    expect(outputs(written)).toEqual({ written: 'true' });
    expect(JSON.parse(write.stdout)).toMatchObject({
      schema_version: 1,
      repo_slug: 'acme/app',
      last_sync_at: '2026-03-01T00:00:00Z',
      last_activity_at: '2026-03-01T00:00:00Z',
      cursors: { issues: '2026-02-28T23:00:00Z', pulls: '', discussions: '', commits: '' },
      last_run_url: 'https://github.com/acme/app/actions/runs/1',
    });
    // Sepo's ref, Sepo's file.
    const stored = JSON.parse(git(dir, 'cat-file', 'blob', 'refs/agent-memory-state/sync:state.json'));
    expect(stored.cursors.issues).toBe('2026-02-28T23:00:00Z');

    const second = await cli(['write-sync-state'], {
      cwd: dir,
      env: { ...env, SYNC_LAST_SYNC_AT: '2026-03-02T00:00:00Z', SYNC_PULL_CURSOR: 'p2' },
    });
    expect(JSON.parse(second.stdout).cursors).toEqual({
      issues: '2026-02-28T23:00:00Z',
      pulls: 'p2',
      discussions: '',
      commits: '',
    });

    const read = outputFile();
    const back = await cli(['read-sync-state'], { cwd: dir, env: { ...env, GITHUB_OUTPUT: read } });
    expect(JSON.parse(back.stdout)).toMatchObject({ last_sync_at: '2026-03-02T00:00:00Z' });
    expect(outputs(read)).toEqual({
      found: 'true',
      last_sync_at: '2026-03-02T00:00:00Z',
      issue_cursor: '2026-02-28T23:00:00Z',
      pull_cursor: 'p2',
      discussion_cursor: '',
      commit_cursor: '',
      last_run_url: '',
    });
    // Another repository's state is ignored: a fresh cursor.
    const other = await cli(['read-sync-state'], { cwd: dir, env: { GITHUB_REPOSITORY: 'acme/other' } });
    expect(other.stdout).toBe('{}\n');
  });

  it("fails like Sepo's without a repository or SYNC_LAST_SYNC_AT (exit 2, written=false)", async () => {
    const dir = repository();
    const file = outputFile();
    const noTime = await cli(['write-sync-state'], {
      cwd: dir,
      env: { GITHUB_REPOSITORY: 'acme/app', GITHUB_OUTPUT: file },
    });
    expect([noTime.code, noTime.stdout, noTime.stderr]).toEqual([2, '', 'Missing SYNC_LAST_SYNC_AT\n']);
    expect(outputs(file)).toEqual({ written: 'false' });
    const noRepo = await cli(['write-sync-state'], { cwd: dir, env: { SYNC_LAST_SYNC_AT: 'x' } });
    expect([noRepo.code, noRepo.stderr]).toEqual([2, 'Missing REPO_SLUG or GITHUB_REPOSITORY\n']);
  });
});

describe('repomem resolve-policy', () => {
  it.each([
    [{ ROUTE: 'review', AGENT_MEMORY_POLICY: '{"route_overrides":{"REVIEW":"disabled"}}' }, 'disabled', 'false'],
    [{ ROUTE: 'answer', AGENT_MEMORY_POLICY: '{"route_overrides":{"REVIEW":"disabled"}}' }, 'enabled', 'true'],
    [{ ROUTE: 'answer', AGENT_MEMORY_POLICY: '{"default_mode":"Read-Only"}' }, 'read-only', 'false'],
    [{ ROUTE: 'answer', AGENT_MEMORY_POLICY: '{"default_mode":"rw"}' }, 'disabled', 'false'],
    [{ ROUTE: 'answer', MEMORY_MODE_OVERRIDE: 'read-only' }, 'read-only', 'false'],
  ])('%j -> %s', async (env, mode, write) => {
    const file = outputFile();
    const result = await cli(['resolve-policy'], { cwd: temp.path, env: { ...env, GITHUB_OUTPUT: file } });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`memory mode: ${mode}; write_enabled=${write}\n`);
    expect(outputs(file)).toEqual({ memory_mode: mode, write_enabled: write });
    if ('AGENT_MEMORY_POLICY' in env && env.AGENT_MEMORY_POLICY.includes('"rw"')) {
      expect(result.stderr).toContain('default_mode must be one of');
    }
  });
});

const EVENTS = fileURLToPath(new URL('../../core/test/envelope/events/', import.meta.url));

describe('repomem envelope --from-event', () => {
  const env = (name: string, event: string) => ({
    GITHUB_EVENT_PATH: join(EVENTS, `${name}.json`),
    GITHUB_EVENT_NAME: event,
    GITHUB_REPOSITORY: 'self-evolving/repo',
    GITHUB_WORKFLOW_REF: 'self-evolving/repo/.github/workflows/agent-review.yml@refs/heads/main',
  });

  it('prints the envelope of a pull request review', async () => {
    const result = await cli(['envelope', '--from-event', '--route', 'review', '--lane', 'codex', '--json'], {
      cwd: temp.path,
      env: env('pull_request_review', 'pull_request_review'),
    });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      route: 'review',
      lane: 'codex',
      workflow: 'agent-review.yml',
      approval_comment_url: null,
      thread_key: 'self-evolving/repo:pull_request:57:review:codex',
    });
  });

  it('takes the route from $ROUTE and reports problems on stderr only', async () => {
    const copy = join(temp.path, 'event.json');
    cpSync(join(EVENTS, 'schedule.json'), copy);
    const scheduled = await cli(['envelope', '--from-event'], {
      cwd: temp.path,
      env: { ...env('schedule', 'schedule'), GITHUB_EVENT_PATH: copy, ROUTE: 'skill' },
    });
    expect(JSON.parse(scheduled.stdout)).toMatchObject({
      target_kind: 'repository',
      requested_by: 'github-actions[bot]',
    });
    const bad = await cli(['envelope', '--from-event', '--route', 'deploy', '--json'], {
      cwd: temp.path,
      env: env('issue_comment', 'issue_comment'),
    });
    expect([bad.code, bad.stdout]).toEqual([2, '']);
    expect(JSON.parse(bad.stderr)).toMatchObject({ ok: false, code: 'INVALID_ENVELOPE' });
    const custom = await cli(['envelope', '--from-event', '--route', 'deploy', '--custom-route', 'deploy'], {
      cwd: temp.path,
      env: env('issue_comment', 'issue_comment'),
    });
    expect(custom.code).toBe(0);
    const noRoute = await cli(['envelope', '--from-event'], {
      cwd: temp.path,
      env: env('issue_comment', 'issue_comment'),
    });
    expect([noRoute.code, noRoute.stdout]).toEqual([1, '']);
  });
});
