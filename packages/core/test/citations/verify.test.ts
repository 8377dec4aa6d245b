import { beforeEach, describe, expect, it } from 'vitest';
import {
  anchoredCitation,
  type CitationReader,
  checkCitation,
  snippetHash,
  verifyCitations,
} from '../../src/citations/index.js';
import { RepomemError } from '../../src/errors.js';
import type { Citation } from '../../src/verified/index.js';
import { createMapCitationReader, type MapCitationReader, numberedLines } from './support.js';

const repo = 'acme/app';
const SNIPPET = 'export const API_VERSION = 3;\nexport const API_NAME = "acme";';

describe('checkCitation against the files a reader serves', () => {
  let reader: MapCitationReader;
  beforeEach(() => {
    reader = createMapCitationReader({ 'src/api.ts': `${numberedLines(10)}${SNIPPET}\n${numberedLines(5, 'tail')}` });
  });

  const cited = (extra: Partial<Citation> = {}): Citation => ({
    path: 'src/api.ts',
    line_start: 11,
    line_end: 12,
    ...extra,
  });

  it('is valid with the cited content when the range is inside the file (no hash)', async () => {
    const check = await checkCitation(reader, repo, cited());
    expect(check).toEqual({ kind: 'valid', citation: cited(), content: SNIPPET, revision: 'worktree' });
  });

  it('is valid when the snippet hash still matches', async () => {
    const citation = cited({ snippet_hash: snippetHash(SNIPPET) });
    expect(await checkCitation(reader, repo, citation)).toEqual({
      kind: 'valid',
      citation,
      content: SNIPPET,
      revision: 'worktree',
    });
  });

  it('relocates a snippet moved by lines inserted above, keeping the hash and dropping a non-commit sha', async () => {
    reader.files.set('src/api.ts', `${numberedLines(14)}${SNIPPET}\n`);
    const citation = cited({ snippet_hash: snippetHash(SNIPPET), sha: 'abcdef1' });
    const check = await checkCitation(reader, repo, citation);
    expect(check).toEqual({
      kind: 'relocated',
      citation,
      relocated: { path: 'src/api.ts', line_start: 15, line_end: 16, snippet_hash: snippetHash(SNIPPET) },
      content: SNIPPET,
      revision: 'worktree',
    });
  });

  it('a relocation read at a non-commit revision drops verified_commit; an unmoved citation keeps it', async () => {
    const before = cited({ snippet_hash: snippetHash(SNIPPET), verified_commit: 'abcdef012345' });
    expect(await checkCitation(reader, repo, before)).toMatchObject({ kind: 'valid', citation: before });
    reader.files.set('src/api.ts', `${numberedLines(14)}${SNIPPET}\n`);
    const check = await checkCitation(reader, repo, before);
    expect(check.kind).toBe('relocated');
    if (check.kind !== 'relocated') return;
    expect(check.relocated).toEqual({
      path: 'src/api.ts',
      line_start: 15,
      line_end: 16,
      snippet_hash: snippetHash(SNIPPET),
    });
    expect(anchoredCitation(check).verified_commit).toBeUndefined();
  });

  it('relocates a snippet that moved up, past the end of the old range', async () => {
    reader.files.set('src/api.ts', `${SNIPPET}\n`);
    const citation = cited({ snippet_hash: snippetHash(SNIPPET) });
    const check = await checkCitation(reader, repo, citation);
    expect(check.kind).toBe('relocated');
    if (check.kind === 'relocated') expect([check.relocated.line_start, check.relocated.line_end]).toEqual([1, 2]);
  });

  it('relocates to the nearest copy when the snippet appears twice', async () => {
    reader.files.set('src/api.ts', `${SNIPPET}\n${numberedLines(20)}${SNIPPET}\n`);
    const citation = { path: 'src/api.ts', line_start: 20, line_end: 21, snippet_hash: snippetHash(SNIPPET) };
    const check = await checkCitation(reader, repo, citation);
    expect(check.kind === 'relocated' ? check.relocated.line_start : 0).toBe(23);
  });

  it('ignores CRLF and trailing whitespace changes', async () => {
    reader.files.set(
      'src/api.ts',
      `${numberedLines(10)}${SNIPPET.replace('\n', '   \r\n')}\r\n`.replace(/\n/g, '\r\n').replace(/\r\r/g, '\r'),
    );
    const check = await checkCitation(reader, repo, cited({ snippet_hash: snippetHash(SNIPPET) }));
    expect(check.kind).toBe('valid');
  });

  it('updates the sha to the revision read when the reader reports a commit', async () => {
    const text = `${numberedLines(3)}${SNIPPET}\n`;
    const gitLike: CitationReader = {
      name: 'fixed',
      read: async () => ({ kind: 'text', text, blobSha: '0'.repeat(40), revision: 'f'.repeat(40) }),
    };
    const check = await checkCitation(gitLike, repo, cited({ snippet_hash: snippetHash(SNIPPET), sha: 'abcdef1' }));
    expect(check.kind === 'relocated' ? check.relocated : undefined).toEqual({
      path: 'src/api.ts',
      line_start: 4,
      line_end: 5,
      sha: 'f'.repeat(40),
      snippet_hash: snippetHash(SNIPPET),
    });
  });

  it('is invalid snippet_missing when the snippet changed', async () => {
    reader.files.set('src/api.ts', `${numberedLines(10)}${SNIPPET.replace('3', '4')}\n`);
    const check = await checkCitation(reader, repo, cited({ snippet_hash: snippetHash(SNIPPET) }));
    expect(check.kind === 'invalid' ? check.reason : check.kind).toBe('snippet_missing');
    expect(check.kind === 'invalid' ? check.message : '').toContain('src/api.ts');
  });

  it('is invalid out_of_range past the end of the file (no hash)', async () => {
    const check = await checkCitation(reader, repo, cited({ line_start: 17, line_end: 18 }));
    expect(check.kind === 'invalid' ? check.reason : check.kind).toBe('out_of_range');
    expect(check.kind === 'invalid' ? check.message : '').toContain('17 lines');
  });

  it('treats the final newline as the end of the last line, not a new line', async () => {
    reader.files.set('one.txt', 'only\n');
    expect((await checkCitation(reader, repo, { path: 'one.txt', line_start: 1, line_end: 1 })).kind).toBe('valid');
    expect((await checkCitation(reader, repo, { path: 'one.txt', line_start: 2, line_end: 2 })).kind).toBe('invalid');
  });

  it('is invalid on an empty file, with or without a hash', async () => {
    reader.files.set('empty.txt', '');
    const plain = await checkCitation(reader, repo, { path: 'empty.txt', line_start: 1, line_end: 1 });
    expect(plain.kind === 'invalid' ? plain.reason : plain.kind).toBe('out_of_range');
    const hashed = await checkCitation(reader, repo, {
      path: 'empty.txt',
      line_start: 1,
      line_end: 1,
      snippet_hash: snippetHash(''),
    });
    expect(hashed.kind === 'invalid' ? hashed.reason : hashed.kind).toBe('snippet_missing');
  });

  it('is invalid file_missing when the file was deleted', async () => {
    reader.files.delete('src/api.ts');
    const check = await checkCitation(reader, repo, cited());
    expect(check.kind === 'invalid' ? check.reason : check.kind).toBe('file_missing');
  });

  it('is invalid binary_file for a binary file', async () => {
    reader.files.set('logo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0a]));
    const check = await checkCitation(reader, repo, { path: 'logo.png', line_start: 1, line_end: 1 });
    expect(check.kind === 'invalid' ? check.reason : check.kind).toBe('binary_file');
  });

  it('is invalid file_too_large above the reader limit', async () => {
    const small = createMapCitationReader(Object.fromEntries(reader.files), { maxBytes: 10 });
    const check = await checkCitation(small, repo, cited());
    expect(check.kind === 'invalid' ? check.reason : check.kind).toBe('file_too_large');
  });

  it('is unavailable (never invalid) when the reader throws', async () => {
    const down: CitationReader = {
      name: 'github',
      read: async () => {
        throw new RepomemError('BACKEND_UNAVAILABLE', 'api.github.com unreachable');
      },
    };
    const check = await checkCitation(down, repo, cited());
    expect(check).toEqual({
      kind: 'unavailable',
      citation: cited(),
      message: 'src/api.ts: the github reader failed: api.github.com unreachable',
    });
    const withRef = await checkCitation(reader, repo, cited(), 'main');
    expect(withRef.kind).toBe('unavailable');
  });
});

describe('verifyCitations', () => {
  it('counts valid, relocated, invalid and unavailable citations in order', async () => {
    const reader = createMapCitationReader({ 'a.ts': 'x\ny\n', 'b.ts': 'moved\nz\n' });
    const result = await verifyCitations(reader, repo, [
      { path: 'a.ts', line_start: 1, line_end: 2 },
      { path: 'b.ts', line_start: 2, line_end: 2, snippet_hash: snippetHash('moved') },
      { path: 'gone.ts', line_start: 1, line_end: 1 },
    ]);
    expect(result.citations.map((check) => check.kind)).toEqual(['valid', 'relocated', 'invalid']);
    expect(result).toMatchObject({ valid: false, valid_count: 2, invalid_count: 1, unavailable_count: 0 });
    const allGood = await verifyCitations(reader, repo, [{ path: 'a.ts', line_start: 2, line_end: 2 }]);
    expect(allGood).toMatchObject({ valid: true, valid_count: 1, invalid_count: 0 });
    const offline = await verifyCitations(reader, repo, [{ path: 'a.ts', line_start: 1, line_end: 1 }], 'HEAD~1');
    expect(offline).toMatchObject({ valid: false, valid_count: 0, invalid_count: 0, unavailable_count: 1 });
  });

  it('only reads through the reader', async () => {
    const reader = createMapCitationReader({ 'a.ts': 'x\n', 'b.ts': 'y\n' });
    const read: string[] = [];
    const counting: CitationReader = {
      name: reader.name,
      read: (location) => {
        read.push(location.path);
        return reader.read(location);
      },
    };
    await verifyCitations(counting, repo, [{ path: 'a.ts', line_start: 1, line_end: 1 }]);
    expect(read).toEqual(['a.ts']);
    expect(Object.fromEntries(reader.files)).toEqual({ 'a.ts': 'x\n', 'b.ts': 'y\n' });
  });
});
