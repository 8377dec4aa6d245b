// Why: item 4 of issue 26 asks that a citation follow its lines into a file split off the cited
// one. The git reader's diff detects copies of modified files (`-C`); this builds the split with
// the git CLI and checks that verification re-anchors the memory in the new file, that lines
// which stayed are unaffected, and that a copy is not followed when the cited lines were edited
// in place rather than moved out.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDocumentRecordBackend, createInMemoryStore, openVerifiedMemory } from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDiffWithCopies } from '../src/citations/diff-line-map.js';
import { createGitCitationReader } from '../src/index.js';
import { freshRepository, git, removeDirectory } from './support.js';

const IDENTITY = ['-c', 'user.name=Split Test', '-c', 'user.email=split@example.com'];
const REPO = 'acme/widgets';
const KEPT = ['import { a } from "./a";', 'export const KEEP = 1;', 'export const ALSO = 2;'];
const MOVED = Array.from({ length: 8 }, (_, index) => `export function helper${index}() { return ${index}; }`);

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

beforeAll(async () => {
  dir = await freshRepository();
  write('src/big.ts', `${[...KEPT, ...MOVED].join('\n')}\n`);
  commit('one big module');
});

afterAll(async () => {
  await removeDirectory(dir);
});

describe('a citation follows its lines into a file split off the cited one', () => {
  it('re-anchors a memory whose lines moved into the new file, keeps one whose lines stayed', async () => {
    const backend = createDocumentRecordBackend(createInMemoryStore());
    const service = openVerifiedMemory({ backend, citations: createGitCitationReader({ dir }) });
    const store = async (subject: string, line_start: number, line_end: number) => {
      const outcome = await service.store({
        repo: REPO,
        subject,
        fact: `${subject} holds`,
        citations: [{ path: 'src/big.ts', line_start, line_end }],
      });
      if (outcome.kind !== 'stored') throw new Error(`not stored: ${outcome.kind}`);
      return outcome.memory;
    };
    const moved = await store('helpers', 6, 8);
    const stayed = await store('keep constant', 2, 2);
    write('src/big.ts', `${KEPT.join('\n')}\n`);
    write('src/helpers.ts', `// split off big.ts\n${MOVED.join('\n')}\n`);
    commit('split the helpers off');

    const followed = await service.verify(REPO, moved.id);
    expect(followed.kind).toBe('valid');
    if (followed.kind === 'valid') {
      expect(followed.memory.citations[0]).toMatchObject({ path: 'src/helpers.ts', line_start: 4, line_end: 6 });
    }
    const kept = await service.verify(REPO, stayed.id);
    expect(kept.kind).toBe('valid');
    if (kept.kind === 'valid') expect(kept.memory.citations[0]).toMatchObject({ path: 'src/big.ts', line_start: 2 });
  });
});

describe('parseDiffWithCopies', () => {
  const DIFF = [
    'diff --git a/src/big.ts b/src/big.ts',
    'index 1111111..2222222 100644',
    '--- a/src/big.ts',
    '+++ b/src/big.ts',
    '@@ -4,3 +3,0 @@',
    '-x',
    '-y',
    '-z',
    '@@ -9 +8 @@',
    '-old',
    '+new',
    'diff --git a/src/big.ts b/src/part.ts',
    'similarity index 60%',
    'copy from src/big.ts',
    'copy to src/part.ts',
    'index 1111111..3333333 100644',
    '--- a/src/big.ts',
    '+++ b/src/part.ts',
    '@@ -1,3 +0,0 @@',
    '-a',
    '-b',
    '-c',
    '',
  ].join('\n');

  it('keeps a copy apart from the original file change', async () => {
    const parsed = parseDiffWithCopies(DIFF);
    expect(parsed.files.get('src/big.ts')?.new_path).toBe('src/big.ts');
    expect(parsed.copies.get('src/big.ts')?.map((copy) => copy.new_path)).toEqual(['src/part.ts']);
  });

  it('follows the copy only for lines removed from the original, not for lines edited in place', async () => {
    const { mapRangeWithCopies } = await import('../src/citations/diff-line-map.js');
    const parsed = parseDiffWithCopies(DIFF);
    expect(mapRangeWithCopies(parsed, 'src/big.ts', 4, 6)).toEqual({
      kind: 'moved',
      path: 'src/part.ts',
      line_start: 1,
      line_end: 3,
    });
    expect(mapRangeWithCopies(parsed, 'src/big.ts', 9, 9)).toMatchObject({ kind: 'changed', path: 'src/big.ts' });
  });
});
