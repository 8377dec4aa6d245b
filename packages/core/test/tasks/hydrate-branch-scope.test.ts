// Why: hydration offers task records (learnings, episodes, rules) under the same branch scope as
// verified memories: learned on another branch and not in the working ref's history, or
// quarantined, a record is left out of the prompt.
import { describe, expect, it } from 'vitest';
import { hydrate, recordLearnings, type TaskRecordBackend } from '../../src/index.js';
import { type BranchHistory, createCommitSet } from '../../src/scope/index.js';
import { freshBackend, minuteClock, REPO } from './support.js';

const FEATURE = 'f'.repeat(40);

/** Mark every knowledge record as learned with `fields` (item 1 of issue 26 writes these). */
async function markKnowledge(backend: TaskRecordBackend, fields: Record<string, unknown>): Promise<void> {
  const records = await backend.list({ repo: REPO, kind: 'knowledge' });
  const applied = await backend.apply(
    records.map((record) => ({
      record: { ...record, data: { ...record.data, ...fields }, revision: record.revision + 1 },
      expectedRevision: record.revision,
    })),
  );
  if (!applied.ok) throw new Error('conflict');
}

function historyOf(commits: readonly string[]): BranchHistory {
  const set = createCommitSet(commits);
  return {
    ancestry: async (request) => ({
      kind: 'known',
      headCommit: commits[0] ?? '',
      contained: new Set(request.commits.filter((commit) => set.has(commit))),
    }),
  };
}

describe('hydrate with branch scope', () => {
  async function seeded(fields: Record<string, unknown>) {
    const backend = freshBackend();
    await recordLearnings({
      backend,
      repo: REPO,
      now: minuteClock(),
      learnings: '**[Session cache]:** The session service in src/auth/session.ts caches tokens for 5 minutes.',
    });
    await markKnowledge(backend, fields);
    return backend;
  }
  const task = { description: 'Fix the session token cache' };
  const subjects = (result: Awaited<ReturnType<typeof hydrate>>) =>
    result.context.knowledge.map((entry) => entry.subject);

  it('offers a learning of a branch on that branch and on refs containing its commit only', async () => {
    const backend = await seeded({ learned_on: { ref: 'feature', commit: FEATURE } });
    const onFeature = await hydrate({ backend, repo: REPO, task, branch: 'feature', history: historyOf([]) });
    expect(subjects(onFeature)).toEqual(['Session cache']);
    const onMain = await hydrate({ backend, repo: REPO, task, branch: 'main', history: historyOf(['a'.repeat(40)]) });
    expect(subjects(onMain)).toEqual([]);
    const merged = await hydrate({ backend, repo: REPO, task, branch: 'main', history: historyOf([FEATURE]) });
    expect(subjects(merged)).toEqual(['Session cache']);
    const noHistory = await hydrate({ backend, repo: REPO, task, branch: 'main' });
    expect(subjects(noHistory)).toEqual([]);
  });

  it('never offers a quarantined learning, and offers default-branch ones everywhere', async () => {
    const quarantined = await seeded({
      learned_on: { ref: 'feature', commit: FEATURE },
      quarantine: { reason: 'pull-request-closed', ref: 'feature', at: '2026-01-01T00:00:00Z' },
    });
    expect(subjects(await hydrate({ backend: quarantined, repo: REPO, task, branch: 'feature' }))).toEqual([]);
    const shared = await seeded({ learned_on: { ref: 'trunk', commit: FEATURE } });
    expect(
      subjects(await hydrate({ backend: shared, repo: REPO, task, branch: 'other', defaultBranch: 'trunk' })),
    ).toEqual(['Session cache']);
  });
});
