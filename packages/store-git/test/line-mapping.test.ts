// Why: citations must follow the code through git (issue 26, item 4): this builds a real
// repository with the git CLI, cites lines at one commit, then renames a file, inserts lines above
// a citation, changes cited lines and deletes a file, and checks what verification, recall and
// the impact check conclude through the git reader's `mapLines` (git diff -M, parsed).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Citation,
  checkCitation,
  checkMemoryImpact,
  createDocumentRecordBackend,
  createInMemoryStore,
  openVerifiedMemory,
  snippetHash,
} from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitCitationReader } from '../src/index.js';
import { freshRepository, git, removeDirectory } from './support.js';

const IDENTITY = ['-c', 'user.name=Mapping Test', '-c', 'user.email=mapping@example.com'];
const REPO = 'acme/widgets';
const NET = 'import { fetch } from "undici";\nexport const TIMEOUT_MS = 500;\nexport const RETRIES = 3;\n';
const CONFIG = 'export const API_VERSION = 3;\nexport const REGION = "eu";\n';
const EDIT = 'export const A = 1;\nexport const B = 2;\nexport const C = 3;\n';
const DUP = 'function a() {\n  return retry(3);\n}\nfunction b() {\n  return retry(3);\n}\n';
const MOVE = 'const first = 1;\nconst second = 2;\nconst third = 3;\nconst fourth = 4;\n';

let dir: string;
let before: string;
let after: string;

function write(path: string, content: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), content);
}

function commit(message: string): string {
  git(dir, ['add', '-A']);
  git(dir, [...IDENTITY, 'commit', '-q', '-m', message]);
  return git(dir, ['rev-parse', 'HEAD']);
}

/** Lines `start..end` of `path` as cited at `before`, with their hash and the commit. */
function cite(path: string, text: string, start: number, end = start, at = before): Citation {
  const lines = text
    .split('\n')
    .slice(start - 1, end)
    .join('\n');
  return { path, line_start: start, line_end: end, snippet_hash: snippetHash(lines), verified_commit: at.slice(0, 12) };
}

beforeAll(async () => {
  dir = await freshRepository();
  write('src/net.ts', NET);
  write('src/config.ts', CONFIG);
  write('src/edit.ts', EDIT);
  write('src/gone.ts', 'export const GONE = true;\n');
  write('src/dup.ts', DUP);
  write('src/move.ts', MOVE);
  before = commit('first');
  write('src/dup.ts', DUP.replace('retry(3)', 'retry(5)'));
  write('src/move.ts', 'const third = 3;\nconst fourth = 4;\nconst first = 1;\nconst second = 2;\n');
  git(dir, ['mv', 'src/net.ts', 'src/network.ts']);
  write('src/config.ts', `// header\n// more header\n\n${CONFIG}`);
  write('src/edit.ts', 'export const A = 1;\nexport const B = 20;\nexport const C = 3;\n');
  git(dir, ['rm', '-q', 'src/gone.ts']);
  after = commit('rename, insert above, change, delete');
});

afterAll(() => removeDirectory(dir));

describe('the git reader maps cited lines between commits', () => {
  const reader = () => createGitCitationReader({ dir });
  const map = (path: string, start: number, end = start, to?: string) =>
    reader().mapLines?.({
      repo: REPO,
      from: before.slice(0, 12),
      ...(to === undefined ? {} : { to }),
      path,
      line_start: start,
      line_end: end,
    });

  it('a renamed file maps to its new path; lines moved down by an insertion shift', async () => {
    expect(await map('src/net.ts', 2)).toEqual({ kind: 'moved', path: 'src/network.ts', line_start: 2, line_end: 2 });
    expect(await map('src/config.ts', 1, 2)).toEqual({
      kind: 'moved',
      path: 'src/config.ts',
      line_start: 4,
      line_end: 5,
    });
  });

  it('changed lines are changed, a deleted file deleted, untouched lines the same', async () => {
    expect(await map('src/edit.ts', 2)).toMatchObject({ kind: 'changed', path: 'src/edit.ts' });
    expect(await map('src/edit.ts', 1)).toEqual({ kind: 'same', file_changed: true });
    expect(await map('src/edit.ts', 1, 3)).toMatchObject({ kind: 'changed' });
    expect(await map('src/gone.ts', 1)).toEqual({ kind: 'deleted' });
    expect(await map('src/config.ts', 1, 1, before)).toEqual({ kind: 'same', file_changed: false });
  });

  it('a revision the repository does not have is unknown', async () => {
    const mapping = await reader().mapLines?.({
      repo: REPO,
      from: 'deadbeefdead',
      path: 'src/net.ts',
      line_start: 1,
      line_end: 1,
    });
    expect(mapping?.kind).toBe('unknown');
  });
});

describe('verification follows citations through the diff', () => {
  it('a renamed file keeps the citation, re-anchored at the new path and pinned to the commit read', async () => {
    const check = await checkCitation(createGitCitationReader({ dir }), REPO, cite('src/net.ts', NET, 2));
    expect(check).toMatchObject({
      kind: 'relocated',
      relocated: { path: 'src/network.ts', line_start: 2, line_end: 2 },
      content: 'export const TIMEOUT_MS = 500;',
      revision: after,
    });
  });

  it('lines moved down by an insertion above are re-anchored', async () => {
    const check = await checkCitation(createGitCitationReader({ dir }), REPO, cite('src/config.ts', CONFIG, 1, 2));
    expect(check).toMatchObject({
      kind: 'relocated',
      relocated: { path: 'src/config.ts', line_start: 4, line_end: 5 },
    });
  });

  it('a real change of the cited lines invalidates; a deleted file invalidates', async () => {
    const reader = createGitCitationReader({ dir });
    expect(await checkCitation(reader, REPO, cite('src/edit.ts', EDIT, 2))).toMatchObject({
      kind: 'invalid',
      reason: 'lines_changed',
    });
    expect(await checkCitation(reader, REPO, cite('src/gone.ts', 'export const GONE = true;\n', 1))).toMatchObject({
      kind: 'invalid',
      reason: 'file_missing',
    });
  });

  it('changed lines whose text survives only in an untouched copy are invalid; a block the diff moved is followed', async () => {
    const reader = createGitCitationReader({ dir });
    expect(await checkCitation(reader, REPO, cite('src/dup.ts', DUP, 2))).toMatchObject({
      kind: 'invalid',
      reason: 'lines_changed',
    });
    expect(await checkCitation(reader, REPO, cite('src/move.ts', MOVE, 1, 2))).toMatchObject({
      kind: 'relocated',
      relocated: { path: 'src/move.ts', line_start: 3, line_end: 4 },
    });
  });

  it('an old record without verified_commit is checked as before (a rename is file_missing)', async () => {
    const { verified_commit: _none, ...old } = cite('src/net.ts', NET, 2);
    expect(await checkCitation(createGitCitationReader({ dir }), REPO, old)).toMatchObject({
      kind: 'invalid',
      reason: 'file_missing',
    });
  });

  it('an unknown verified_commit falls back to the snippet search', async () => {
    const citation = { ...cite('src/config.ts', CONFIG, 1), verified_commit: 'deadbeefdead' };
    expect(await checkCitation(createGitCitationReader({ dir }), REPO, citation)).toMatchObject({
      kind: 'relocated',
      relocated: { line_start: 4 },
    });
  });

  it('store records the commit; recall after the rename keeps the memory at its new path', async () => {
    const backend = createDocumentRecordBackend(createInMemoryStore());
    const atBefore = openVerifiedMemory({ backend, citations: createGitCitationReader({ dir, ref: before }) });
    const stored = await atBefore.store({
      repo: REPO,
      subject: 'network timeout',
      fact: 'Requests time out after 500 ms.',
      citations: [{ path: 'src/net.ts', line_start: 2, line_end: 2 }],
    });
    expect(stored.kind).toBe('stored');
    if (stored.kind !== 'stored') return;
    expect(stored.memory.citations[0]?.verified_commit).toBe(before.slice(0, 12));
    const atHead = openVerifiedMemory({ backend, citations: createGitCitationReader({ dir }) });
    const recalled = await atHead.recall(REPO);
    expect(recalled.invalidated).toEqual([]);
    expect(recalled.memories[0]?.citations[0]).toMatchObject({
      path: 'src/network.ts',
      line_start: 2,
      verified_commit: after.slice(0, 12),
    });
  });
});

describe('checkMemoryImpact lists the memories a diff touches', () => {
  it('re-anchored, invalidated and still-valid memories, untouched ones left out', async () => {
    const backend = createDocumentRecordBackend(createInMemoryStore());
    const service = openVerifiedMemory({ backend, citations: createGitCitationReader({ dir, ref: before }) });
    const store = async (subject: string, path: string, start: number) => {
      const outcome = await service.store({
        repo: REPO,
        subject,
        fact: `${subject}.`,
        citations: [{ path, line_start: start, line_end: start }],
      });
      if (outcome.kind !== 'stored') throw new Error(`not stored: ${subject}`);
      return outcome.memory.id;
    };
    const renamed = await store('timeout', 'src/net.ts', 2);
    const changed = await store('b value', 'src/edit.ts', 2);
    const intact = await store('a value', 'src/edit.ts', 1);
    const deleted = await store('gone', 'src/gone.ts', 1);
    const report = await checkMemoryImpact({
      backend,
      reader: createGitCitationReader({ dir }),
      repo: REPO,
      base: before,
      head: 'HEAD',
    });
    expect(report.checked).toBe(4);
    expect(report.counts).toEqual({ invalidated: 2, unknown: 0, reanchored: 1, valid: 1 });
    const outcome = (id: string) => report.touched.find((impact) => impact.memory.id === id);
    expect(outcome(renamed)?.citations[0]).toMatchObject({
      kind: 'reanchored',
      anchored: { path: 'src/network.ts', line_start: 2 },
    });
    expect(outcome(changed)?.citations[0]).toMatchObject({ kind: 'invalidated', reason: 'lines_changed' });
    expect(outcome(deleted)?.citations[0]).toMatchObject({ kind: 'invalidated', reason: 'file_missing' });
    expect(outcome(intact)?.outcome).toBe('valid');
    expect(report.touched.slice(0, 2).map((impact) => impact.outcome)).toEqual(['invalidated', 'invalidated']);
    // Nothing was written: the memories are still active, at their old lines.
    const still = await service.get(REPO, renamed);
    expect(still?.citations[0]?.path).toBe('src/net.ts');
  });

  it('an unknown base is NOT_FOUND', async () => {
    const backend = createDocumentRecordBackend(createInMemoryStore());
    await expect(
      checkMemoryImpact({ backend, reader: createGitCitationReader({ dir }), repo: REPO, base: 'nope', head: 'HEAD' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
