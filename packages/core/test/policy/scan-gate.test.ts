import { describe, expect, it } from 'vitest';
import { isRepomemError } from '../../src/errors.js';
import {
  MEMORY_SCAN_STATE_REF,
  MEMORY_SYNC_STATE_REF,
  parseScanState,
  parseSyncState,
  shouldRunScan,
} from '../../src/policy/index.js';

const SYNC = {
  schema_version: 1,
  repo_slug: 'self-evolving/repo',
  last_sync_at: '2026-04-23T06:00:00.000Z',
  last_activity_at: '2026-04-23T05:00:00Z',
  cursors: { issues: '2026-04-23T05:00:00Z', pulls: '', discussions: '', commits: '' },
  last_run_url: 'https://github.com/self-evolving/repo/actions/runs/1',
  created_at: '2026-04-01T00:00:00Z',
  updated_at: '2026-04-23T06:00:00.000Z',
};
const SCAN = {
  schema_version: 1,
  repo_slug: 'self-evolving/repo',
  last_scan_at: '2026-04-23T04:00:00Z',
  last_run_url: '',
  created_at: '2026-04-01T00:00:00Z',
  updated_at: '2026-04-23T04:00:00Z',
};

describe('parseSyncState / parseScanState', () => {
  it('reads valid state, keeping extra cursors and fields', () => {
    const result = parseSyncState(JSON.stringify({ ...SYNC, future_field: 1 }), 'self-evolving/repo');
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.state.cursors).toStrictEqual(SYNC.cursors);
      expect(result.state.future_field).toBe(1);
    }
    expect(parseScanState(SCAN, 'self-evolving/repo')).toStrictEqual({ ok: true, state: SCAN });
  });

  it('fills missing fields with empty strings (state before the first sync)', () => {
    const result = parseSyncState({ repo_slug: 'o/r' }, 'o/r');
    expect(result).toStrictEqual({
      ok: true,
      state: {
        schema_version: 1,
        repo_slug: 'o/r',
        last_sync_at: '',
        last_activity_at: '',
        cursors: { issues: '', pulls: '', discussions: '' },
        last_run_url: '',
        created_at: '',
        updated_at: '',
      },
    });
  });

  it('ignores state of another repository (copied memory branch)', () => {
    expect(parseSyncState(SYNC, 'someone/else')).toStrictEqual({
      ok: false,
      reason: 'other_repo',
      message: 'sync state: state belongs to "self-evolving/repo", not "someone/else"; ignored',
    });
  });

  it('compares repositories case-insensitively', () => {
    expect(parseSyncState(SYNC, 'Self-Evolving/Repo').ok).toBe(true);
  });

  it('says why a state cannot be used', () => {
    expect(parseSyncState(undefined, 'o/r')).toMatchObject({ ok: false, reason: 'missing' });
    expect(parseSyncState('  ', 'o/r')).toMatchObject({ ok: false, reason: 'missing' });
    expect(parseSyncState('{', 'o/r')).toMatchObject({ ok: false, reason: 'invalid_json' });
    expect(parseSyncState({ ...SYNC, last_activity_at: 'yesterday' }, 'self-evolving/repo')).toMatchObject({
      ok: false,
      reason: 'invalid_state',
      message: 'last_activity_at: expected an ISO 8601 timestamp or "", got string "yesterday"',
    });
    expect(parseSyncState({ ...SYNC, schema_version: 2 }, 'self-evolving/repo')).toMatchObject({
      ok: false,
      reason: 'invalid_state',
      message: 'schema_version: expected schema_version 1, got number 2',
    });
    expect(parseSyncState({ ...SYNC, cursors: { issues: 5 } }, 'self-evolving/repo')).toMatchObject({
      ok: false,
      reason: 'invalid_state',
      message: 'cursors.issues: expected a string, got number 5',
    });
    expect(parseScanState({ last_scan_at: '' }, 'o/r')).toMatchObject({
      ok: false,
      reason: 'invalid_state',
      message: 'repo_slug: required field is missing',
    });
  });

  it('throws INVALID_ARGUMENT for a bad current repository', () => {
    expect(() => parseSyncState(SYNC, 'nope')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    try {
      parseScanState(SCAN, '');
    } catch (error) {
      expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
    }
  });

  it('names the refs', () => {
    expect(MEMORY_SYNC_STATE_REF).toBe('refs/agent-memory-state/sync');
    expect(MEMORY_SCAN_STATE_REF).toBe('refs/agent-memory-state/scan');
  });
});

describe('shouldRunScan', () => {
  it('runs when activity is newer than the last scan', () => {
    expect(shouldRunScan({ syncState: SYNC, scanState: SCAN, event: 'schedule' })).toMatchObject({
      run: true,
      reason: 'new_activity',
    });
  });

  it('skips when there is no activity since the last scan', () => {
    const scan = { ...SCAN, last_scan_at: '2026-04-23T05:30:00Z' };
    expect(shouldRunScan({ syncState: SYNC, scanState: scan })).toStrictEqual({
      run: false,
      reason: 'no_new_activity',
      message: 'no activity since the last scan: skipping',
    });
  });

  it('skips when the times are equal (strictly newer is required), comparing instants not strings', () => {
    const scan = { ...SCAN, last_scan_at: '2026-04-23T07:00:00+02:00' };
    expect(shouldRunScan({ syncState: SYNC, scanState: scan }).run).toBe(false);
  });

  it('reads JSON strings as well as objects', () => {
    expect(shouldRunScan({ syncState: JSON.stringify(SYNC), scanState: JSON.stringify(SCAN) }).reason).toBe(
      'new_activity',
    );
  });

  it.each<[string, unknown, unknown, string]>([
    ['no sync state', undefined, SCAN, 'no_activity_cursor'],
    ['empty activity cursor', { ...SYNC, last_activity_at: '' }, SCAN, 'no_activity_cursor'],
    ['invalid activity cursor', { ...SYNC, last_activity_at: 'soon' }, SCAN, 'no_activity_cursor'],
    ['malformed sync JSON', '{', SCAN, 'no_activity_cursor'],
    ['no scan state', SYNC, undefined, 'no_scan_cursor'],
    ['empty scan cursor', SYNC, { ...SCAN, last_scan_at: '' }, 'no_scan_cursor'],
    ['invalid scan cursor', SYNC, { ...SCAN, last_scan_at: 42 }, 'no_scan_cursor'],
    ['malformed scan JSON', SYNC, 'not json', 'no_scan_cursor'],
  ])('%s: runs', (_name, syncState, scanState, reason) => {
    const decision = shouldRunScan({ syncState, scanState, event: 'schedule' });
    expect(decision.run).toBe(true);
    expect(decision.reason).toBe(reason);
  });

  it('treats state of another repository as missing when currentRepo is given', () => {
    const scan = { ...SCAN, last_scan_at: '2026-04-23T05:30:00Z' };
    expect(shouldRunScan({ syncState: SYNC, scanState: scan }).run).toBe(false);
    const other = { ...scan, repo_slug: 'other/repo' };
    expect(shouldRunScan({ syncState: SYNC, scanState: other, currentRepo: 'self-evolving/repo' })).toMatchObject({
      run: true,
      reason: 'no_scan_cursor',
    });
  });

  it('manual dispatch bypasses the gate', () => {
    const scan = { ...SCAN, last_scan_at: '2026-04-23T05:30:00Z' };
    expect(shouldRunScan({ syncState: SYNC, scanState: scan, event: 'workflow_dispatch' })).toMatchObject({
      run: true,
      reason: 'manual',
    });
  });
});
