// Why: branch scope (issue 26) decides from the learned-on fields each backend returns, through
// the backend's own listing, native search and path lookup. These groups store memories learned on
// the default branch, on the working branch, on a branch the working ref contains and on one it
// does not, plus a quarantined one, and check that recall, search, getRecent and searchByPath over
// the backend under test serve exactly those in scope, and that verify leaves the others alone.
import type { CitationReader } from '../citations/reader.js';
import { createCommitSet } from '../scope/commit-set.js';
import type { VerifiedMemoryBackend } from '../verified/backend.js';
import type { VerifiedMemory } from '../verified/record.js';
import { openVerifiedMemory } from '../verified/service.js';
import {
  CONFORMANCE_REPO,
  conformanceId,
  conformanceRecord,
  conformanceTime,
} from './record-backend-conformance-fixtures.js';
import type { RecordBackendHarness } from './record-backend-conformance-types.js';

const repo = CONFORMANCE_REPO;
const MAIN_COMMIT = '1'.repeat(40);
const CONTAINED_COMMIT = '2'.repeat(40);
const FOREIGN_COMMIT = '3'.repeat(40);
const CITED_FILE = `${Array.from({ length: 20 }, (_, index) => `line ${index + 1}`).join('\n')}\n`;

/**
 * A citation reader over one revision holding the cited file, on branch `work` of a repository
 * whose default branch is `main`, with a history holding `MAIN_COMMIT` and `CONTAINED_COMMIT`.
 */
function scopeReader(): CitationReader {
  const history = createCommitSet([MAIN_COMMIT, CONTAINED_COMMIT]);
  return {
    name: 'conformance',
    async read() {
      return { kind: 'text', text: CITED_FILE, blobSha: 'f'.repeat(40), revision: MAIN_COMMIT };
    },
    async ancestry(request) {
      return {
        kind: 'known',
        headCommit: MAIN_COMMIT,
        contained: new Set(request.commits.filter((commit) => history.has(commit))),
      };
    },
    async branches() {
      return { current: 'work', defaultBranch: 'main' };
    },
  };
}

/** Register the branch-scope group. */
export function registerRecordScopeGroups<B extends VerifiedMemoryBackend>(h: RecordBackendHarness<B>): void {
  const { describe, expect } = h.options.runner;
  const memory = (n: number, fields: Partial<VerifiedMemory>) =>
    conformanceRecord({
      id: conformanceId(n),
      subject: `Widget fact ${n}`,
      fact: `The widget cache holds ${n} entries.`,
      created_at: conformanceTime(n),
      refreshed_at: conformanceTime(n),
      ...fields,
    });
  const records = [
    memory(1, {}),
    memory(2, { learned_on: { ref: 'main', commit: MAIN_COMMIT } }),
    memory(3, { learned_on: { ref: 'work', commit: FOREIGN_COMMIT } }),
    memory(4, { learned_on: { ref: 'topic', commit: CONTAINED_COMMIT.slice(0, 12) } }),
    memory(5, { learned_on: { ref: 'other', commit: FOREIGN_COMMIT } }),
    memory(6, {
      learned_on: { ref: 'work', commit: CONTAINED_COMMIT },
      quarantine: { reason: 'pull-request-closed', ref: 'work', at: conformanceTime(6) },
    }),
  ];
  const inScope = [1, 2, 3, 4].map(conformanceId);
  const open = async () => {
    const result = await h.backend().apply(
      records.map((record) => ({ record, expectedRevision: null })),
      [],
    );
    expect(result).toEqual({ ok: true });
    return openVerifiedMemory({
      backend: h.backend(),
      citations: scopeReader(),
      now: () => new Date(conformanceTime(30)),
    });
  };
  const sorted = (memories: readonly VerifiedMemory[]) => memories.map((found) => found.id).sort();

  describe('branch scope', () => {
    h.test('recall, search, getRecent and searchByPath serve only the memories in scope', async () => {
      const service = await open();
      const recalled = await service.recall(repo);
      expect(sorted(recalled.memories)).toEqual(inScope);
      expect(recalled.outOfScope).toBe(2);
      expect(recalled.invalidated).toEqual([]);
      expect(sorted(await service.search(repo, 'widget cache'))).toEqual(inScope);
      expect(sorted(await service.getRecent(repo))).toEqual(inScope);
      expect(sorted(await service.searchByPath(repo, 'src/client/sdk/constants.ts'))).toEqual(inScope);
    });

    h.test('a limit counts memories in scope, read past those out of scope', async () => {
      const service = await open();
      // Newest first: 6 (quarantined) and 5 (not contained) are passed over.
      expect((await service.getRecent(repo, 2)).map((found) => found.id)).toEqual([4, 3].map(conformanceId));
      expect((await service.search(repo, 'widget', 1)).length).toBe(1);
    });

    h.test('verify skips a memory out of scope, changing nothing', async () => {
      const service = await open();
      const outcome = await service.verify(repo, conformanceId(5));
      expect(outcome.kind).toBe('out_of_scope');
      const quarantined = await service.verify(repo, conformanceId(6));
      expect(quarantined.kind === 'out_of_scope' && quarantined.verdict.reason).toBe('quarantined');
      expect((await h.backend().get(repo, conformanceId(5)))?.revision).toBe(1);
      expect((await h.backend().get(repo, conformanceId(6)))?.revision).toBe(1);
    });

    h.test('on another branch the working branch memories are out of scope unless contained', async () => {
      const service = await open();
      expect(sorted((await service.recall(repo, { branch: 'other' })).memories)).toEqual(
        [1, 2, 4, 5].map(conformanceId),
      );
    });
  });
}
