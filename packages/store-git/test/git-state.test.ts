import { execFileSync } from 'node:child_process';
import { isRepomemError } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  encodeStateKey,
  type GitStore,
  openGitStore,
  readStateRef,
  STATE_KEY_REF_PREFIX,
  stateKeyOfRef,
  stateKeyRef,
  writeStateRef,
} from '../src/index.js';
import { freshRepository, fsckStrict, gitEnv, removeDirectory } from './support.js';

const REPO = 'octo/memory';
let dir: string;
let store: GitStore;

beforeEach(async () => {
  dir = await freshRepository();
  store = await openGitStore({ dir, clock: () => new Date('2026-05-01T10:00:00Z') });
});
afterEach(async () => {
  await store.close();
  await removeDirectory(dir);
});

const syncState = {
  schema_version: 1,
  repo_slug: REPO,
  last_sync_at: '2025-03-01T10:00:00Z',
  last_activity_at: '2025-03-01T09:59:00Z',
  cursors: { issues: '2025-03-01T09:00:00Z', pulls: '', discussions: '' },
  last_run_url: 'https://example.com/run/1',
  created_at: '2025-02-01T00:00:00Z',
  updated_at: '2025-03-01T10:00:00Z',
};

function run(args: string[], input?: string): string {
  return execFileSync('git', args, { cwd: dir, env: gitEnv, input }).toString('utf8').trim();
}

async function errorOf(action: () => Promise<unknown>): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('state keys as refs', () => {
  it('maps a key to one ref component under refs/agent-memory-state/ and back', () => {
    expect(stateKeyRef('sync')).toBe('refs/agent-memory-state/sync');
    expect(stateKeyRef('scan')).toBe('refs/agent-memory-state/scan');
    expect(encodeStateKey('sync/acme/app')).toBe('sync%2Facme%2Fapp');
    expect(encodeStateKey('thread/o%2Fr--issue--1')).toBe('thread%2Fo%252Fr--issue--1');
    expect(encodeStateKey('a.')).toBe('a%2E');
    expect(encodeStateKey('@')).toBe('%40');
    for (const key of [
      'sync',
      'sync/acme/app',
      'thread/o%2Fr--issue--1--a--b',
      'a.',
      'a./b',
      '@',
      'x/@',
      'user@host',
    ]) {
      const ref = stateKeyRef(key);
      expect(stateKeyOfRef(ref), key).toBe(key);
      execFileSync('git', ['check-ref-format', ref]);
    }
    for (const foreign of [
      `${STATE_KEY_REF_PREFIX}a/b`,
      `${STATE_KEY_REF_PREFIX}a%2fb`,
      `${STATE_KEY_REF_PREFIX}a%41`,
      'refs/heads/x',
    ]) {
      expect(stateKeyOfRef(foreign), foreign).toBeUndefined();
    }
    expect(
      isRepomemError(
        errorOfSync(() => stateKeyRef('../x')),
        'INVALID_ARGUMENT',
      ),
    ).toBe(true);
  });
});

function errorOfSync(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('store.state on git refs', () => {
  it('reads the Sepo sync state under the key "sync" (version = the commit id), and writes it back in the same layout', async () => {
    const written = await writeStateRef({ dir, ref: 'sync', state: syncState, expected: null, repo: REPO });
    if (written.status !== 'written') throw new Error('expected written');
    const entry = await store.state.get('sync');
    expect(entry).toEqual({ key: 'sync', value: syncState, version: written.commit });
    const moved = { ...syncState, last_sync_at: '2025-03-02T10:00:00Z' };
    const put = await store.state.put('sync', moved, written.commit);
    expect(put.status).toBe('committed');
    const tip = run(['rev-parse', 'refs/agent-memory-state/sync']);
    expect(put).toEqual({ status: 'committed', version: tip });
    expect(run(['rev-parse', 'refs/agent-memory-state/sync^'])).toBe(written.commit);
    expect(run(['ls-tree', '--name-only', 'refs/agent-memory-state/sync'])).toBe('state.json');
    expect(run(['log', '-1', '--format=%s|%an <%ae>', 'refs/agent-memory-state/sync'])).toBe(
      'state: sync|repomem <agent@localhost>',
    );
    // Sepo's reader (and the typed state-ref API) still reads what the store wrote.
    expect(JSON.parse(run(['show', 'refs/agent-memory-state/sync:state.json']))).toEqual(moved);
    expect(await readStateRef({ dir, ref: 'sync', repo: REPO })).toMatchObject({ status: 'found', commit: tip });
    // The memory branch is untouched: state never makes a memory commit.
    expect(await store.revision()).toBe('empty');
    fsckStrict(dir);
  });

  it('list walks loose and packed refs, skips refs no key encodes to, and delete removes a packed ref too', async () => {
    await store.state.put('sync/acme/app', { n: 1 });
    await store.state.put('scan', { n: 2 });
    run(['pack-refs', '--all']);
    await store.state.put('thread/x', { n: 3 });
    const blob = run(['hash-object', '-w', '--stdin'], '{}');
    const tree = run(['mktree'], `100644 blob ${blob}\tstate.json\n`);
    run(['update-ref', 'refs/agent-memory-state/foreign/nested', run(['commit-tree', tree, '-m', 'foreign'])]);
    expect((await store.state.list()).map((entry) => [entry.key, entry.value])).toEqual([
      ['scan', { n: 2 }],
      ['sync/acme/app', { n: 1 }],
      ['thread/x', { n: 3 }],
    ]);
    expect((await store.state.list({ prefix: 'sync/' })).map((entry) => entry.key)).toEqual(['sync/acme/app']);
    const packed = await store.state.get('sync/acme/app');
    expect(await store.state.delete('sync/acme/app', packed?.version)).toEqual({ status: 'committed', version: null });
    expect(await store.state.get('sync/acme/app')).toBeUndefined();
    expect(run(['for-each-ref', '--format=%(refname)', 'refs/agent-memory-state/']).split('\n')).toEqual([
      'refs/agent-memory-state/foreign/nested',
      'refs/agent-memory-state/scan',
      'refs/agent-memory-state/thread%2Fx',
    ]);
    fsckStrict(dir);
  });

  it('a ref that is not a state commit is INVALID_DOCUMENT, never read as absent', async () => {
    const blob = run(['hash-object', '-w', '--stdin'], 'not json');
    const tree = run(['mktree'], `100644 blob ${blob}\tstate.json\n`);
    run(['update-ref', 'refs/agent-memory-state/broken', run(['commit-tree', tree, '-m', 'x'])]);
    expect(isRepomemError(await errorOf(() => store.state.get('broken')), 'INVALID_DOCUMENT')).toBe(true);
    run(['update-ref', 'refs/agent-memory-state/tree-less', blob]);
    expect(isRepomemError(await errorOf(() => store.state.get('tree-less')), 'INVALID_DOCUMENT')).toBe(true);
  });

  it('a second store instance (and the git CLI) sees every write; a stale version is a conflict', async () => {
    const other = await openGitStore({ dir });
    try {
      const first = await store.state.put('cursor', 1, null);
      if (first.status !== 'committed') throw new Error('expected committed');
      expect((await other.state.get('cursor'))?.version).toBe(first.version);
      expect((await other.state.put('cursor', 2, first.version)).status).toBe('committed');
      expect(await store.state.put('cursor', 3, first.version)).toEqual({
        status: 'conflict',
        expected: first.version,
        actual: run(['rev-parse', 'refs/agent-memory-state/cursor']),
      });
      expect((await store.state.get('cursor'))?.value).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('refuses calls after close with STORE_CLOSED', async () => {
    await store.close();
    expect(isRepomemError(await errorOf(() => store.state.get('sync')), 'STORE_CLOSED')).toBe(true);
    expect(isRepomemError(await errorOf(() => store.state.put('sync', 1)), 'STORE_CLOSED')).toBe(true);
  });
});
