// Why: every outcome of the pure bullet operations and every fix of Sepo weaknesses 1-4, shown as
// before/after file text.
import { describe, expect, it } from 'vitest';
import { isRepomemError } from '../../src/errors.js';
import { addBullet, dailyAppendBullet, removeBullet, replaceBullet } from '../../src/markdown/operations.js';

const md = (...lines: string[]): string => `${lines.join('\n')}\n`;

const BASE = md('# Memory', '', '## Durable', '- Use pnpm', '- Keep tests fast', '', '## Questions', '- Why turbo?');

describe('addBullet', () => {
  it('seeds an empty or missing MEMORY.md with title, blank line, section, bullet', () => {
    for (const source of [undefined, '', '  \n\n']) {
      const result = addBullet(source, { file: 'MEMORY.md', section: 'Durable', text: 'Use pnpm' });
      expect(result.outcome).toEqual({ kind: 'added', path: 'MEMORY.md', bullet: '- Use pnpm' });
      expect(result.text).toBe(md('# Memory', '', '## Durable', '- Use pnpm'));
    }
  });

  it('seeds PROJECT.md with # Project', () => {
    const result = addBullet(undefined, { file: 'PROJECT.md', section: 'Goals', text: '* ship v1' });
    expect(result.text).toBe(md('# Project', '', '## Goals', '- ship v1'));
  });

  it('adds after the last bullet of the section', () => {
    const result = addBullet(BASE, { file: 'MEMORY.md', section: 'Durable', text: 'Prefer zod' });
    expect(result.outcome.kind).toBe('added');
    expect(result.text).toBe(
      md(
        '# Memory',
        '',
        '## Durable',
        '- Use pnpm',
        '- Keep tests fast',
        '- Prefer zod',
        '',
        '## Questions',
        '- Why turbo?',
      ),
    );
  });

  it('weakness 1: lands after the last bullet, not after trailing blank lines or text', () => {
    const before = md('## Durable', '- a', '', '', 'Closing paragraph.', '', '## Next', '- n');
    const after = addBullet(before, { file: 'MEMORY.md', section: 'Durable', text: 'b' }).text;
    expect(after).toBe(md('## Durable', '- a', '- b', '', '', 'Closing paragraph.', '', '## Next', '- n'));
  });

  it('keeps a multi-line bullet whole (inserts after its continuation lines)', () => {
    const before = md('## Durable', '- a', '  continued', '', '## Next');
    const after = addBullet(before, { file: 'MEMORY.md', section: 'Durable', text: 'b' }).text;
    expect(after).toBe(md('## Durable', '- a', '  continued', '- b', '', '## Next'));
  });

  it('inserts right after the header when the section has no bullets', () => {
    const before = md('# Memory', '', '## Durable', '', 'Some notes.', '', '## Next', '- n');
    const after = addBullet(before, { file: 'MEMORY.md', section: 'Durable', text: 'first' }).text;
    expect(after).toBe(md('# Memory', '', '## Durable', '- first', '', 'Some notes.', '', '## Next', '- n'));
  });

  it('weakness 4: section names are case- and whitespace-insensitive', () => {
    const result = addBullet(BASE, { file: 'MEMORY.md', section: '  durable ', text: 'x' });
    expect(result.outcome.kind).toBe('added');
    expect(result.text).toContain('- Keep tests fast\n- x\n');
  });

  it('weakness 4: a # header ends a section', () => {
    const before = md('## Durable', '- a', '# Appendix', 'free text');
    const after = addBullet(before, { file: 'MEMORY.md', section: 'Durable', text: 'b' }).text;
    expect(after).toBe(md('## Durable', '- a', '- b', '# Appendix', 'free text'));
  });

  it('dedups exactly (case-sensitive, on the normalised bullet) within the section: duplicate, no text', () => {
    const result = addBullet(BASE, { file: 'MEMORY.md', section: 'Durable', text: '*   Use   pnpm' });
    expect(result).toEqual({ outcome: { kind: 'duplicate', path: 'MEMORY.md', bullet: '- Use pnpm' } });
    const differentCase = addBullet(BASE, { file: 'MEMORY.md', section: 'Durable', text: 'use pnpm' });
    expect(differentCase.outcome.kind).toBe('added');
  });

  it('dedup is section-scoped: the same bullet may live in another section', () => {
    const result = addBullet(BASE, { file: 'MEMORY.md', section: 'Questions', text: 'Use pnpm' });
    expect(result.outcome.kind).toBe('added');
  });

  it('missing_section in a non-empty file lists the sections that exist', () => {
    const result = addBullet(BASE, { file: 'MEMORY.md', section: 'Nope', text: 'x' });
    expect(result).toEqual({
      outcome: { kind: 'missing_section', path: 'MEMORY.md', section: 'Nope', sections: ['Durable', 'Questions'] },
    });
  });

  it('duplicate_section refuses and reports the 1-based header lines', () => {
    const before = md('# Memory', '## Durable', '- a', '## durable', '- b');
    expect(addBullet(before, { file: 'MEMORY.md', section: 'Durable', text: 'x' })).toEqual({
      outcome: { kind: 'duplicate_section', path: 'MEMORY.md', section: 'Durable', lines: [2, 4] },
    });
  });

  it('preserves CRLF line endings', () => {
    const before = '# Memory\r\n\r\n## Durable\r\n- a\r\n';
    expect(addBullet(before, { file: 'MEMORY.md', section: 'Durable', text: 'b' }).text).toBe(
      '# Memory\r\n\r\n## Durable\r\n- a\r\n- b\r\n',
    );
  });

  it('adds the missing final newline and drops trailing blank lines', () => {
    expect(addBullet('## A\n- a', { file: 'MEMORY.md', section: 'A', text: 'b' }).text).toBe('## A\n- a\n- b\n');
    expect(addBullet('## A\n- a\n\n\n', { file: 'MEMORY.md', section: 'A', text: 'b' }).text).toBe('## A\n- a\n- b\n');
  });

  it('rejects bad arguments with INVALID_ARGUMENT', () => {
    const bad = [
      { file: 'NOTES.md', section: 'A', text: 'x' },
      { file: 'MEMORY.md', section: ' ', text: 'x' },
      { file: 'MEMORY.md', section: 'A\nB', text: 'x' },
      { file: 'MEMORY.md', section: 'A', text: ' \n ' },
    ];
    for (const input of bad) {
      expect(() => addBullet(BASE, input as never)).toThrow(
        expect.objectContaining({ name: 'RepomemError', code: 'INVALID_ARGUMENT' }),
      );
    }
    try {
      addBullet(BASE, { file: 'NOTES.md' as never, section: 'A', text: 'x' });
    } catch (error) {
      expect(isRepomemError(error, 'INVALID_ARGUMENT') && error.message).toMatch(/MEMORY\.md, PROJECT\.md/);
    }
  });
});

describe('replaceBullet', () => {
  it('replaces the single matched bullet in place', () => {
    const result = replaceBullet(BASE, { file: 'MEMORY.md', section: 'Durable', match: 'pnpm', with: 'Use pnpm 10' });
    expect(result.outcome).toEqual({
      kind: 'replaced',
      path: 'MEMORY.md',
      from: '- Use pnpm',
      bullet: '- Use pnpm 10',
    });
    expect(result.text).toBe(
      md('# Memory', '', '## Durable', '- Use pnpm 10', '- Keep tests fast', '', '## Questions', '- Why turbo?'),
    );
  });

  it('weakness 3: match is marker-, case- and whitespace-insensitive on the normalised text', () => {
    const before = md('## A', '  *   Run    the   TESTS   before push');
    const result = replaceBullet(before, { file: 'MEMORY.md', section: 'A', match: '- run the tests', with: 'x' });
    expect(result.outcome.kind).toBe('replaced');
    expect(result.text).toBe(md('## A', '  - x'));
    const noMarkerHit = replaceBullet(md('## A', '- a', '- b'), {
      file: 'MEMORY.md',
      section: 'A',
      match: '-',
      with: 'x',
    });
    expect(noMarkerHit.outcome.kind).toBe('no_match');
  });

  it('weakness 2: rewrites every identical copy, leaving one', () => {
    const before = md('## A', '- old', '- keep', '*  old', '- old');
    const result = replaceBullet(before, { file: 'MEMORY.md', section: 'A', match: 'old', with: 'new' });
    expect(result.outcome.kind).toBe('replaced');
    expect(result.text).toBe(md('## A', '- new', '- keep'));
  });

  it('collapsed: with already exists in the section, so matched copies go and the existing one stays', () => {
    const before = md('## A', '- old', '- new', '- old');
    const result = replaceBullet(before, { file: 'MEMORY.md', section: 'A', match: 'old', with: 'new' });
    expect(result.outcome).toEqual({ kind: 'collapsed', path: 'MEMORY.md', from: '- old', bullet: '- new' });
    expect(result.text).toBe(md('## A', '- new'));
  });

  it('duplicate: the match already equals with, nothing written', () => {
    const result = replaceBullet(BASE, { file: 'MEMORY.md', section: 'Durable', match: 'pnpm', with: '- Use pnpm' });
    expect(result).toEqual({ outcome: { kind: 'duplicate', path: 'MEMORY.md', bullet: '- Use pnpm' } });
  });

  it('no_match when nothing in the section matches (other sections ignored)', () => {
    const result = replaceBullet(BASE, { file: 'MEMORY.md', section: 'Durable', match: 'turbo', with: 'x' });
    expect(result).toEqual({
      outcome: { kind: 'no_match', path: 'MEMORY.md', section: 'Durable', match: 'turbo' },
    });
  });

  it('ambiguous lists distinct candidates in file order; identical copies count once', () => {
    const before = md('## A', '- beta test', '- alpha test', '- beta test', '- gamma');
    const result = replaceBullet(before, { file: 'MEMORY.md', section: 'A', match: 'TEST', with: 'x' });
    expect(result).toEqual({
      outcome: {
        kind: 'ambiguous',
        path: 'MEMORY.md',
        section: 'A',
        match: 'TEST',
        candidates: ['- beta test', '- alpha test'],
      },
    });
  });

  it('missing_section and duplicate_section', () => {
    expect(replaceBullet(BASE, { file: 'MEMORY.md', section: 'X', match: 'a', with: 'b' }).outcome.kind).toBe(
      'missing_section',
    );
    expect(replaceBullet(undefined, { file: 'MEMORY.md', section: 'X', match: 'a', with: 'b' }).outcome).toEqual({
      kind: 'missing_section',
      path: 'MEMORY.md',
      section: 'X',
      sections: [],
    });
    const twice = md('## A', '- a', '## A', '- a');
    expect(replaceBullet(twice, { file: 'MEMORY.md', section: 'a', match: 'a', with: 'b' }).outcome).toEqual({
      kind: 'duplicate_section',
      path: 'MEMORY.md',
      section: 'a',
      lines: [1, 3],
    });
  });

  it('rejects empty match or with', () => {
    expect(() => replaceBullet(BASE, { file: 'MEMORY.md', section: 'Durable', match: ' ', with: 'x' })).toThrow(
      /match must be non-empty/,
    );
    expect(() => replaceBullet(BASE, { file: 'MEMORY.md', section: 'Durable', match: 'pnpm', with: '' })).toThrow(
      /with must be non-empty/,
    );
  });

  it('preserves CRLF', () => {
    const before = '## A\r\n- old\r\n- other\r\n';
    expect(replaceBullet(before, { file: 'MEMORY.md', section: 'A', match: 'old', with: 'new' }).text).toBe(
      '## A\r\n- new\r\n- other\r\n',
    );
  });
});

describe('removeBullet', () => {
  it('removes the matched bullet', () => {
    const result = removeBullet(BASE, { file: 'MEMORY.md', section: 'Durable', match: 'tests fast' });
    expect(result.outcome).toEqual({ kind: 'removed', path: 'MEMORY.md', bullet: '- Keep tests fast' });
    expect(result.text).toBe(md('# Memory', '', '## Durable', '- Use pnpm', '', '## Questions', '- Why turbo?'));
  });

  it('weakness 2: removes every identical copy', () => {
    const before = md('## A', '- dup', '- keep', '+ dup', '## B', '- dup');
    const result = removeBullet(before, { file: 'MEMORY.md', section: 'A', match: 'dup' });
    expect(result.outcome.kind).toBe('removed');
    expect(result.text).toBe(md('## A', '- keep', '## B', '- dup'));
  });

  it('no_match, ambiguous, missing_section', () => {
    expect(removeBullet(BASE, { file: 'MEMORY.md', section: 'Durable', match: 'zzz' }).outcome.kind).toBe('no_match');
    expect(removeBullet(BASE, { file: 'MEMORY.md', section: 'Durable', match: 'e' }).outcome).toMatchObject({
      kind: 'ambiguous',
      candidates: ['- Use pnpm', '- Keep tests fast'],
    });
    expect(removeBullet(BASE, { file: 'MEMORY.md', section: 'Gone', match: 'x' }).outcome).toMatchObject({
      kind: 'missing_section',
      sections: ['Durable', 'Questions'],
    });
  });

  it('preserves CRLF', () => {
    expect(removeBullet('## A\r\n- a\r\n- b\r\n', { file: 'MEMORY.md', section: 'A', match: 'a' }).text).toBe(
      '## A\r\n- b\r\n',
    );
  });
});

describe('dailyAppendBullet', () => {
  it('creates the daily log with title and Activity section', () => {
    const result = dailyAppendBullet(undefined, { date: '2026-05-01', text: 'Triaged #42' });
    expect(result.outcome).toEqual({ kind: 'added', path: 'daily/2026-05-01.md', bullet: '- Triaged #42' });
    expect(result.text).toBe(md('# Daily log for 2026-05-01', '', '## Activity', '- Triaged #42'));
  });

  it('appends after the last Activity bullet and dedups', () => {
    const before = md('# Daily log for 2026-05-01', '', '## Activity', '- one', '', '## Notes', 'x');
    const result = dailyAppendBullet(before, { date: '2026-05-01', text: 'two' });
    expect(result.text).toBe(
      md('# Daily log for 2026-05-01', '', '## Activity', '- one', '- two', '', '## Notes', 'x'),
    );
    expect(dailyAppendBullet(before, { date: '2026-05-01', text: '- one' }).outcome.kind).toBe('duplicate');
  });

  it('appends an Activity section to a log that has none', () => {
    const before = md('# Daily log for 2026-05-01', '', 'hand-written note', '');
    expect(dailyAppendBullet(before, { date: '2026-05-01', text: 'x' }).text).toBe(
      md('# Daily log for 2026-05-01', '', 'hand-written note', '', '## Activity', '- x'),
    );
  });

  it('refuses a log with two Activity sections', () => {
    const before = md('## Activity', '- a', '## activity', '- b');
    expect(dailyAppendBullet(before, { date: '2026-05-01', text: 'x' }).outcome).toEqual({
      kind: 'duplicate_section',
      path: 'daily/2026-05-01.md',
      section: 'Activity',
      lines: [1, 3],
    });
  });

  it.each(['2026-5-1', '2026-02-30', '2026-13-01', 'yesterday', '../etc'])('rejects date %j', (date) => {
    expect(() => dailyAppendBullet(undefined, { date, text: 'x' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('accepts a leap day', () => {
    expect(dailyAppendBullet(undefined, { date: '2028-02-29', text: 'x' }).outcome.kind).toBe('added');
  });
});
