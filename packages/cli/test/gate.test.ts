// Why: the memory workflows act on `repomem gate` step outputs; each decision is checked here
// from recorded event payloads and real state refs in a real git repository, the way a workflow
// step runs it (environment in, $GITHUB_OUTPUT out, exit 0).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-gate-');
afterAll(() => temp.remove());
const EVENTS = fileURLToPath(new URL('./events/', import.meta.url));
const REPO = 'acme/app';

let counter = 0;
function outputFile(): string {
  const file = join(temp.path, `output-${++counter}`);
  writeFileSync(file, '');
  return file;
}

function outputs(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) out[line.slice(0, at)] = line.slice(at + 1);
  }
  return out;
}

async function gate(args: string[], env: Record<string, string>, cwd = temp.path) {
  const file = outputFile();
  const result = await cli(['gate', ...args], { cwd, env: { GITHUB_REPOSITORY: REPO, ...env, GITHUB_OUTPUT: file } });
  return { ...result, outputs: outputs(file) };
}

describe('repomem gate schedule', () => {
  it.each([
    [{ GITHUB_EVENT_NAME: 'schedule' }, 'agent-memory-sync.yml', 'true', 'always_run'],
    [{ GITHUB_EVENT_NAME: 'schedule' }, 'agent-daily-summary.yml', 'false', 'schedule_disabled'],
    [{ GITHUB_EVENT_NAME: 'schedule', AGENT_ENABLED: 'false' }, 'agent-memory-sync.yml', 'false', 'paused'],
    [{ GITHUB_EVENT_NAME: 'workflow_dispatch', AGENT_ENABLED: 'false' }, 'agent-memory-sync.yml', 'false', 'paused'],
    [{ GITHUB_EVENT_NAME: 'workflow_dispatch' }, 'agent-daily-summary.yml', 'true', 'not_scheduled'],
    [
      {
        GITHUB_EVENT_NAME: 'schedule',
        AGENT_SCHEDULE_POLICY: '{"workflow_overrides":{"agent-memory-sync.yml":"disabled"}}',
      },
      'agent-memory-sync.yml',
      'false',
      'schedule_disabled',
    ],
  ])('%j %s -> run=%s (%s)', async (env, workflow, run, reason) => {
    const result = await gate(['schedule', '--workflow', workflow], env);
    expect(result.code).toBe(0);
    expect(result.outputs).toMatchObject({ run, reason });
    expect(result.stdout).toMatch(new RegExp(`^gate schedule: ${run === 'true' ? 'run' : 'skip'} \\(${reason}\\)`));
  });

  it('fails closed on an invalid policy and says why on stderr', async () => {
    const result = await gate(['schedule', '--workflow', 'agent-memory-scan.yml'], {
      GITHUB_EVENT_NAME: 'schedule',
      AGENT_SCHEDULE_POLICY: '{nope',
    });
    expect(result.outputs).toMatchObject({ run: 'false', reason: 'invalid_policy' });
    expect(result.stderr).not.toBe('');
  });
});

describe('repomem gate scan', () => {
  function repository(): string {
    const dir = join(temp.path, `repo-${++counter}`);
    makeRepository(dir, { 'README.md': '# app\n' });
    return dir;
  }
  async function writeState(dir: string, ref: 'sync' | 'scan', fields: Record<string, string>) {
    const now = '2026-11-24T00:00:00Z';
    const state =
      ref === 'sync'
        ? {
            schema_version: 1,
            repo_slug: REPO,
            last_sync_at: now,
            last_activity_at: '',
            cursors: {},
            last_run_url: '',
            created_at: now,
            updated_at: now,
            ...fields,
          }
        : {
            schema_version: 1,
            repo_slug: REPO,
            last_scan_at: '',
            last_run_url: '',
            created_at: now,
            updated_at: now,
            ...fields,
          };
    const result = await cli(
      ['state', 'write', '--ref', ref, '--state', JSON.stringify(state), '--store', `git:${dir}`],
      {
        cwd: dir,
        env: { GITHUB_REPOSITORY: REPO },
      },
    );
    expect(result.stderr).toBe('');
  }

  it('runs a scheduled scan only when the sync activity moved past the last scan', async () => {
    const dir = repository();
    const env = { GITHUB_EVENT_NAME: 'schedule', GITHUB_WORKSPACE: dir };
    expect((await gate(['scan'], env, dir)).outputs).toMatchObject({ run: 'true', reason: 'no_activity_cursor' });
    await writeState(dir, 'sync', { last_activity_at: '2026-11-24T10:00:00Z' });
    expect((await gate(['scan'], env, dir)).outputs).toMatchObject({ run: 'true', reason: 'no_scan_cursor' });
    await writeState(dir, 'scan', { last_scan_at: '2026-11-24T11:00:00Z' });
    expect((await gate(['scan'], env, dir)).outputs).toMatchObject({ run: 'false', reason: 'no_new_activity' });
    await writeState(dir, 'sync', { last_activity_at: '2026-11-24T12:00:00Z' });
    expect((await gate(['scan'], env, dir)).outputs).toMatchObject({ run: 'true', reason: 'new_activity' });
  });

  it('lets a manual dispatch bypass the gate, and AGENT_ENABLED=false pause it', async () => {
    const dir = repository();
    await writeState(dir, 'sync', { last_activity_at: '2026-11-24T10:00:00Z' });
    await writeState(dir, 'scan', { last_scan_at: '2026-11-24T11:00:00Z' });
    const dispatch = await gate(['scan'], { GITHUB_EVENT_NAME: 'workflow_dispatch', GITHUB_WORKSPACE: dir }, dir);
    expect(dispatch.outputs).toMatchObject({ run: 'true', reason: 'not_scheduled' });
    const paused = await gate(['scan'], { GITHUB_EVENT_NAME: 'workflow_dispatch', AGENT_ENABLED: 'false' }, dir);
    expect(paused.outputs).toMatchObject({ run: 'false', reason: 'paused' });
  });

  it('ignores a state written for another repository (runs)', async () => {
    const dir = repository();
    await writeState(dir, 'sync', { last_activity_at: '2026-11-24T10:00:00Z' });
    await writeState(dir, 'scan', { last_scan_at: '2026-11-24T11:00:00Z' });
    const other = await gate(
      ['scan'],
      { GITHUB_EVENT_NAME: 'schedule', GITHUB_WORKSPACE: dir, GITHUB_REPOSITORY: 'other/repo' },
      dir,
    );
    expect(other.outputs.run).toBe('true');
  });
});

describe('repomem gate pr-closed (recorded pull_request_target payloads)', () => {
  it.each([
    ['pull_request_target_closed_same_repo.json', 'pull_request_target', 'true', 'same_repo'],
    ['pull_request_target_closed_merged_fork.json', 'pull_request_target', 'true', 'merged_fork'],
    ['pull_request_target_closed_unmerged_fork.json', 'pull_request_target', 'false', 'unmerged_fork'],
    ['pull_request_target_closed_deleted_fork.json', 'pull_request_target', 'false', 'unmerged_fork'],
    ['pull_request_target_closed_unmerged_fork.json', 'workflow_dispatch', 'true', 'manual_dispatch'],
  ])('%s on %s -> run=%s (%s)', async (file, event, run, reason) => {
    const result = await gate(['pr-closed'], { GITHUB_EVENT_NAME: event, GITHUB_EVENT_PATH: join(EVENTS, file) });
    expect(result.code).toBe(0);
    expect(result.outputs).toMatchObject({ run, reason });
  });

  it('skips everything when AGENT_ENABLED=false, and an unreadable event', async () => {
    const paused = await gate(['pr-closed'], {
      GITHUB_EVENT_NAME: 'pull_request_target',
      GITHUB_EVENT_PATH: join(EVENTS, 'pull_request_target_closed_same_repo.json'),
      AGENT_ENABLED: 'false',
    });
    expect(paused.outputs).toMatchObject({ run: 'false', reason: 'paused' });
    const broken = join(temp.path, 'broken-event.json');
    writeFileSync(broken, '{"pull_request": {"merged": "yes"}}');
    const invalid = await gate(['pr-closed'], { GITHUB_EVENT_NAME: 'pull_request_target', GITHUB_EVENT_PATH: broken });
    expect(invalid.outputs).toMatchObject({ run: 'false', reason: 'invalid_pull_request' });
  });
});

describe('repomem gate commit', () => {
  const memory = join(temp.path, 'memory');
  mkdirSync(memory, { recursive: true });

  it.each([
    [['--agent-exit-code', '0', '--memory-dir', memory, '--route', 'answer'], {}, 'true', 'commit', 'enabled'],
    [['--agent-exit-code', '1', '--memory-dir', memory, '--route', 'answer'], {}, 'false', 'agent_failed', 'enabled'],
    [
      ['--agent-exit-code', '', '--memory-dir', memory, '--route', 'answer'],
      {},
      'false',
      'agent_exit_unknown',
      'enabled',
    ],
    [
      ['--agent-exit-code', '0', '--memory-dir', memory, '--route', 'review'],
      { AGENT_MEMORY_POLICY: '{"route_overrides":{"review":"read-only"}}' },
      'false',
      'memory_read_only',
      'read-only',
    ],
    [
      ['--agent-exit-code', '0', '--memory-dir', memory, '--route', 'review', '--override', 'read-only'],
      {},
      'false',
      'memory_read_only',
      'read-only',
    ],
    [
      ['--agent-exit-code', '0', '--memory-dir', join(temp.path, 'absent'), '--route', 'answer'],
      {},
      'false',
      'memory_not_mounted',
      'enabled',
    ],
  ])('%j -> commit=%s (%s)', async (args, env, commit, reason, mode) => {
    const result = await gate(['commit', ...args], env);
    expect(result.outputs).toMatchObject({ run: commit, commit, reason, memory_mode: mode });
  });

  it('prints the decision as JSON with --json', async () => {
    const result = await gate(
      ['commit', '--agent-exit-code', '0', '--memory-dir', memory, '--route', 'answer', '--json'],
      {},
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ gate: 'commit', run: true, reason: 'commit' });
  });

  it('refuses an unknown gate with the usage', async () => {
    const result = await gate(['deploy'], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown gate "deploy"');
  });
});
