// Why: the store kit port keeps the on-disk layout (documents in the branch tree, state in refs
// under refs/agent-memory-state/) and git's own versions (blob ids, commit ids), so a branch
// written by the release before the port must read identically. The fixture was written by the
// pre-port store (test/fixtures/write-pre-port.mjs against its built dist).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitStore, openGitStore } from '../src/index.js';
import { freshRepository, fsckStrict, git, packageRoot, removeDirectory, utf8 } from './support.js';

const fixtures = join(packageRoot, 'test', 'fixtures');
const expected = JSON.parse(readFileSync(join(fixtures, 'pre-port.expected.json'), 'utf8')) as {
  revision: string;
  documents: { path: string; version: string; size: number; content: string }[];
  state: { key: string; value: unknown; version: string }[];
  history: Record<string, unknown>[];
};

let dir: string;
let store: GitStore;
beforeEach(async () => {
  dir = await freshRepository({ bare: true });
  git(dir, ['fetch', '-q', join(fixtures, 'pre-port.bundle'), 'refs/*:refs/*']);
  store = await openGitStore({ dir });
});
afterEach(async () => {
  await store.close();
  await removeDirectory(dir);
});

describe('a branch written by the pre-port store', () => {
  it('reads identically: documents, versions, listing, revision, state and history', async () => {
    expect(await store.revision()).toBe(expected.revision);
    expect(await store.list()).toEqual(expected.documents.map(({ path, version, size }) => ({ path, version, size })));
    for (const document of expected.documents) {
      const read = await store.get(document.path);
      expect(read?.version).toBe(document.version);
      expect(Buffer.from(read?.content ?? []).toString('base64')).toBe(document.content);
    }
    expect(await store.state.list()).toEqual(expected.state);
    const history = (await store.history.log()).map((entry) => ({ ...entry, time: entry.time.toISOString() }));
    expect(history).toEqual(expected.history);
  });

  it('takes writes and state updates against the versions it handed out', async () => {
    const memory = expected.documents.find((document) => document.path === 'MEMORY.md');
    const written = await store.write([
      {
        kind: 'put',
        path: 'MEMORY.md',
        content: utf8('# Memory\n- third\n'),
        expectedVersion: memory?.version ?? null,
      },
    ]);
    expect(written.status).toBe('committed');
    const scan = expected.state.find((entry) => entry.key === 'scan');
    expect((await store.state.put('scan', [5], scan?.version)).status).toBe('committed');
    expect(git(dir, ['rev-parse', 'refs/agent-memory-state/scan^'])).toBe(scan?.version);
    fsckStrict(dir);
  });
});
