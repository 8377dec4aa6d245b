// Why: issue 26's two reproductions on a real repository the test builds with the git CLI, through
// the git citation reader's history (`git rev-list`) and branch names: (a) a memory learned on a
// branch about a file the branch adds is out of scope on main, neither served nor invalidated,
// and served on its branch; once merged main serves it; (b) after `git mv` the memory is
// re-anchored, not invalidated. Plus what the reader answers for ancestry and branch names.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createDocumentRecordBackend,
  createInMemoryStore,
  type LearnedOnFields,
  openVerifiedMemory,
  type VerifiedMemory,
  type VerifiedMemoryService,
} from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitCitationReader } from '../src/index.js';
import { freshRepository, git, removeDirectory } from './support.js';

const IDENTITY = ['-c', 'user.name=Scope Test', '-c', 'user.email=scope@example.com'];
const REPO = 'acme/widgets';
const NET = 'export const TIMEOUT_MS = 500;\nexport const RETRIES = 3;\n';

let dir: string;

function write(path: string, content: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

function commit(message: string): string {
  git(dir, ['add', '-A']);
  git(dir, [...IDENTITY, 'commit', '-q', '-m', message]);
  return git(dir, ['rev-parse', 'HEAD']);
}

function openService(): { service: VerifiedMemoryService; backend: ReturnType<typeof createDocumentRecordBackend> } {
  const backend = createDocumentRecordBackend(createInMemoryStore());
  return { service: openVerifiedMemory({ backend, citations: createGitCitationReader({ dir }) }), backend };
}

/** Store a memory and record where it was learned (item 1 of issue 26 writes `learned_on`). */
async function storeLearned(
  opened: ReturnType<typeof openService>,
  subject: string,
  cited: { readonly path: string; readonly line: number },
  fields: LearnedOnFields,
): Promise<VerifiedMemory> {
  const outcome = await opened.service.store({
    repo: REPO,
    subject,
    fact: `${subject} is configured in ${cited.path}`,
    citations: [{ path: cited.path, line_start: cited.line, line_end: cited.line }],
  });
  if (outcome.kind !== 'stored') throw new Error(`not stored: ${JSON.stringify(outcome)}`);
  const record = { ...outcome.memory, ...fields, revision: outcome.memory.revision + 1 };
  const applied = await opened.backend.apply([{ record, expectedRevision: outcome.memory.revision }], []);
  if (!applied.ok) throw new Error('conflict');
  return record;
}

beforeAll(async () => {
  dir = await freshRepository();
  write('README.md', '# widgets\n');
  commit('initial');
});

afterAll(async () => {
  await removeDirectory(dir);
});

describe('branch scope through the git citation reader', () => {
  it('(a) a memory learned on a branch is out of scope on main, never invalidated there; (b) a rename keeps it', async () => {
    const opened = openService();
    git(dir, ['checkout', '-q', '-b', 'feature']);
    write('src/net.ts', NET);
    const featureCommit = commit('add the network client');
    const memory = await storeLearned(
      opened,
      'Network timeout',
      { path: 'src/net.ts', line: 1 },
      {
        learned_on: { ref: 'feature', commit: featureCommit.slice(0, 12) },
      },
    );

    // On the branch: served.
    expect((await opened.service.recall(REPO)).memories.map((item) => item.id)).toEqual([memory.id]);

    // On main (which lacks src/net.ts): out of scope, not invalidated, not served.
    git(dir, ['checkout', '-q', 'main']);
    const verified = await opened.service.verify(REPO, memory.id);
    expect(verified).toMatchObject({ kind: 'out_of_scope', verdict: { reason: 'not-contained' } });
    const onMain = await opened.service.recall(REPO);
    expect(onMain.memories).toEqual([]);
    expect(onMain.invalidated).toEqual([]);
    expect(onMain.outOfScope).toBe(1);
    expect((await opened.service.get(REPO, memory.id))?.status).toBe('active');
    // Asked explicitly for the branch while main is checked out: served.
    expect((await opened.service.recall(REPO, { ref: 'feature' })).memories.map((item) => item.id)).toEqual([
      memory.id,
    ]);

    // Merged: main's history contains the commit, so main serves it.
    git(dir, [...IDENTITY, 'merge', '-q', '--no-ff', '-m', 'merge feature', 'feature']);
    expect((await opened.service.recall(REPO)).memories.map((item) => item.id)).toEqual([memory.id]);

    // (b) a memory citing line 2 on main, then `git mv`: re-anchored, kept.
    const retries = await storeLearned(
      opened,
      'Network retries',
      { path: 'src/net.ts', line: 2 },
      {
        learned_on: { ref: 'main', commit: git(dir, ['rev-parse', 'HEAD']) },
      },
    );
    git(dir, ['mv', 'src/net.ts', 'src/network.ts']);
    commit('rename the network client');
    const renamed = await opened.service.verify(REPO, retries.id);
    expect(renamed.kind).toBe('valid');
    if (renamed.kind === 'valid') {
      expect(renamed.memory.citations[0]).toMatchObject({ path: 'src/network.ts', line_start: 2, line_end: 2 });
    }
    const recalled = await opened.service.recall(REPO);
    expect(recalled.invalidated).toEqual([]);
    expect(recalled.memories.map((item) => item.id).sort()).toEqual([memory.id, retries.id].sort());
  });

  it('keeps a memory on its own branch after a force-push dropped its commit', async () => {
    const opened = openService();
    git(dir, ['checkout', '-q', '-b', 'rebased', 'main']);
    write('src/flag.ts', 'export const FLAG = true;\n');
    const dropped = commit('flag');
    const memory = await storeLearned(
      opened,
      'Feature flag',
      { path: 'src/flag.ts', line: 1 },
      {
        learned_on: { ref: 'rebased', commit: dropped },
      },
    );
    // Rewrite the branch: the commit is gone from its history, the cited line still exists.
    git(dir, ['reset', '-q', '--hard', 'main']);
    write('src/flag.ts', 'export const FLAG = true;\n');
    commit('flag, rewritten');
    const reader = createGitCitationReader({ dir });
    const answer = await reader.ancestry?.({ repo: REPO, commits: [dropped] });
    expect(answer).toMatchObject({ kind: 'known' });
    expect(answer?.kind === 'known' && answer.contained.size).toBe(0);
    try {
      expect((await opened.service.verify(REPO, memory.id)).kind).toBe('valid');
    } finally {
      git(dir, ['checkout', '-q', 'main']);
    }
  });

  it('answers ancestry for many commits at once (full and abbreviated) and names the branches', async () => {
    const reader = createGitCitationReader({ dir });
    const head = git(dir, ['rev-parse', 'HEAD']);
    const first = git(dir, ['rev-list', '--max-parents=0', 'HEAD']);
    const stranger = git(dir, ['rev-parse', 'rebased']);
    const answer = await reader.ancestry?.({ repo: REPO, commits: [head, first.slice(0, 7), stranger, 'deadbeef'] });
    expect(answer).toEqual({ kind: 'known', headCommit: head, contained: new Set([head, first.slice(0, 7)]) });
    expect(await reader.ancestry?.({ repo: REPO, head: 'rebased', commits: [stranger] })).toMatchObject({
      kind: 'known',
      contained: new Set([stranger]),
    });
    expect(await reader.ancestry?.({ repo: REPO, head: 'no-such-branch', commits: [head] })).toMatchObject({
      kind: 'unknown',
    });
    expect(await reader.branches?.(REPO)).toEqual({ current: 'main', defaultBranch: 'main' });
    expect(await createGitCitationReader({ dir, ref: 'rebased' }).branches?.(REPO)).toEqual({
      current: 'rebased',
      defaultBranch: 'main',
    });
    git(dir, ['checkout', '-q', '--detach', 'HEAD']);
    try {
      expect(await reader.branches?.(REPO)).toEqual({ defaultBranch: 'main' });
    } finally {
      git(dir, ['checkout', '-q', 'main']);
    }
  });
});
