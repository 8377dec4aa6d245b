// Why: pins Sepo's exact messages, streams and exit codes for every outcome, the search text
// and JSON layouts, init output and the error-to-exit-code mapping, as pure functions.
import { RepomemError, type RepomemErrorCode, type SearchResponse, type UpdateOutcome } from '@repomem/core';
import { describe, expect, it } from 'vitest';
import { CliDataError, CliUsageError, classifyError } from '../src/errors.js';
import { formatInitText, initJson } from '../src/format/init-output.js';
import { formatScore, formatSearchJson, formatSearchText, searchJson } from '../src/format/search-output.js';
import { describeUpdateOutcome, updateOutcomeJson } from '../src/format/update-output.js';
import { wantsJson } from '../src/report-error.js';

const P = 'memory/MEMORY.md';

describe('describeUpdateOutcome', () => {
  it.each<[UpdateOutcome, 0 | 2, 'stdout' | 'stderr', string]>([
    [{ kind: 'added', path: 'MEMORY.md', bullet: '- a' }, 0, 'stdout', `added bullet to ${P}`],
    [{ kind: 'duplicate', path: 'MEMORY.md', bullet: '- a' }, 0, 'stdout', `no change (duplicate): ${P}`],
    [{ kind: 'replaced', path: 'MEMORY.md', from: '- a', bullet: '- b' }, 0, 'stdout', `replaced bullet in ${P}`],
    [
      { kind: 'collapsed', path: 'MEMORY.md', from: '- a', bullet: '- b' },
      0,
      'stdout',
      `collapsed duplicate bullet in ${P}`,
    ],
    [{ kind: 'removed', path: 'MEMORY.md', bullet: '- a' }, 0, 'stdout', `removed bullet from ${P}`],
    [
      { kind: 'no_match', path: 'MEMORY.md', section: 'S', match: 'zzz' },
      2,
      'stderr',
      `no bullet matched: zzz in ${P}`,
    ],
    [
      { kind: 'ambiguous', path: 'MEMORY.md', section: 'S', match: 'use', candidates: ['- use a', '- use b'] },
      2,
      'stderr',
      `multiple bullets matched: use in ${P}\n- use a\n- use b`,
    ],
    [
      { kind: 'missing_section', path: 'MEMORY.md', section: 'Nope', sections: ['Durable', 'Notes'] },
      2,
      'stderr',
      `section not found: Nope in ${P}\navailable sections: Durable, Notes`,
    ],
    [
      { kind: 'missing_section', path: 'MEMORY.md', section: 'Nope', sections: [] },
      2,
      'stderr',
      `section not found: Nope in ${P}\navailable sections: (none)`,
    ],
    [
      { kind: 'duplicate_section', path: 'MEMORY.md', section: 'Durable', lines: [3, 9] },
      2,
      'stderr',
      `duplicate section: Durable in ${P} (headers on lines 3, 9); merge them by hand, then retry`,
    ],
  ])('%j', (outcome, exitCode, stream, text) => {
    expect(describeUpdateOutcome(outcome, P)).toEqual({ exitCode, stream, text });
  });

  it('builds the --json object with the display path, document path and outcome fields', () => {
    expect(updateOutcomeJson({ kind: 'replaced', path: 'MEMORY.md', from: '- a', bullet: '- b' }, P)).toEqual({
      ok: true,
      outcome: 'replaced',
      path: P,
      message: `replaced bullet in ${P}`,
      documentPath: 'MEMORY.md',
      from: '- a',
      bullet: '- b',
    });
    expect(
      updateOutcomeJson({ kind: 'ambiguous', path: 'MEMORY.md', section: 'S', match: 'u', candidates: ['- u1'] }, P),
    ).toMatchObject({ ok: false, outcome: 'ambiguous', candidates: ['- u1'], section: 'S', match: 'u' });
  });
});

const response: SearchResponse = {
  query: 'flaky test',
  terms: ['flaky', 'test'],
  documentCount: 10,
  results: [
    {
      path: 'MEMORY.md',
      score: 12.3456,
      matchCount: 2,
      matchedTerms: ['flaky', 'test'],
      snippets: [
        { lineNumber: 4, text: '- flaky test in CI', score: 10, matchCount: 2 },
        { lineNumber: 0, text: '(matched by filename)', score: 1, matchCount: 1 },
      ],
    },
    {
      path: 'github/issue-3.json',
      score: 7,
      matchCount: 1,
      matchedTerms: [],
      snippets: [
        { lineNumber: 1, text: 'comments[3].body: flaky', field: 'comments[3].body', score: 7, matchCount: 1 },
      ],
    },
  ],
};

describe('search output', () => {
  it('formats scores like Sepo (integers as is, two decimals otherwise)', () => {
    expect(formatScore(7)).toBe('7');
    expect(formatScore(12.3456)).toBe('12.35');
    expect(formatScore(0.5)).toBe('0.5');
  });

  it('renders the text layout', () => {
    expect(formatSearchText('flaky test', response, '/m')).toBe(
      [
        'Memory search: "flaky test"  (2 files in /m)',
        '',
        '## MEMORY.md  (score=12.35, matches=2)',
        'Matched terms: flaky, test',
        '  L4: - flaky test in CI',
        '  Path match: (matched by filename)',
        '',
        '## github/issue-3.json  (score=7, matches=1)',
        'Matched terms: (none)',
        '  L1: comments[3].body: flaky',
        '',
      ].join('\n'),
    );
  });

  it('renders one file and no match', () => {
    const one = { ...response, results: response.results.slice(1) };
    expect(formatSearchText('q', one, '/m').split('\n')[0]).toBe('Memory search: "q"  (1 file in /m)');
    expect(formatSearchText('q', { ...response, results: [] }, '/m')).toBe(
      'Memory search: "q"  (0 files in /m)\n\n_No matches found._\n',
    );
  });

  it('builds the --json document with absolute paths and the field of JSON snippets', () => {
    const json = searchJson('flaky test', response, '/m');
    expect(json).toEqual({
      query: 'flaky test',
      memoryDir: '/m',
      resultCount: 2,
      results: [
        {
          path: 'MEMORY.md',
          absolutePath: '/m/MEMORY.md',
          score: 12.3456,
          matchCount: 2,
          matchedTerms: ['flaky', 'test'],
          snippets: [
            { lineNumber: 4, text: '- flaky test in CI', score: 10, matchCount: 2 },
            { lineNumber: 0, text: '(matched by filename)', score: 1, matchCount: 1 },
          ],
        },
        {
          path: 'github/issue-3.json',
          absolutePath: '/m/github/issue-3.json',
          score: 7,
          matchCount: 1,
          matchedTerms: [],
          snippets: [
            { lineNumber: 1, text: 'comments[3].body: flaky', score: 7, matchCount: 1, field: 'comments[3].body' },
          ],
        },
      ],
    });
    expect(JSON.parse(formatSearchJson('flaky test', response, '/m'))).toEqual(json);
    expect(formatSearchJson('q', response, '/m')).toMatch(/^\{\n {2}"query": "q",\n[\s\S]*\}\n$/);
  });
});

describe('init output', () => {
  it('lists created files, or says nothing was needed', () => {
    const result = { created: ['MEMORY.md', 'daily/.gitkeep'], existing: ['PROJECT.md'] };
    expect(formatInitText(result, 'mem')).toBe(
      'created mem/MEMORY.md\ncreated mem/daily/.gitkeep\ninitialised memory tree in mem (2 created, 1 already present)\n',
    );
    expect(formatInitText({ created: [], existing: ['MEMORY.md'] }, 'mem')).toBe(
      'memory tree already initialised in mem (nothing created)\n',
    );
    expect(initJson(result, '/abs/mem')).toEqual({
      ok: true,
      memoryDir: '/abs/mem',
      created: ['MEMORY.md', 'daily/.gitkeep'],
      existing: ['PROJECT.md'],
    });
  });
});

describe('classifyError', () => {
  it('maps usage, data, repomem and unexpected errors to exit codes', () => {
    expect(classifyError(new CliUsageError('bad'))).toEqual({
      exitCode: 1,
      message: 'bad',
      showUsage: true,
      code: 'USAGE',
    });
    expect(classifyError(new CliDataError('NOT_FOUND', 'gone'))).toEqual({
      exitCode: 2,
      message: 'gone',
      showUsage: false,
      code: 'NOT_FOUND',
    });
    for (const code of ['INVALID_ARGUMENT', 'INVALID_PATH'] as const) {
      expect(classifyError(new RepomemError(code, 'm'))).toMatchObject({ exitCode: 1, showUsage: true, code });
    }
    for (const code of [
      'NOT_FOUND',
      'NOT_A_DIRECTORY',
      'BINARY_FILE',
      'FILE_TOO_LARGE',
      'READ_ONLY',
      'INVALID_DOCUMENT',
    ] as const satisfies readonly RepomemErrorCode[]) {
      expect(classifyError(new RepomemError(code, 'm'))).toMatchObject({ exitCode: 2, message: 'm', code });
    }
    expect(classifyError(new RepomemError('LOCK_TIMEOUT', 'slow'))).toMatchObject({
      exitCode: 1,
      message: 'repomem: LOCK_TIMEOUT: slow',
    });
    // Recognised by class: an error that only looks like one is unexpected.
    const lookalike = Object.assign(new Error('m'), { name: 'RepomemError', code: 'NOT_FOUND' });
    expect(classifyError(lookalike)).toMatchObject({ exitCode: 1, code: 'UNEXPECTED' });
    expect(classifyError(new TypeError('boom'))).toMatchObject({
      exitCode: 1,
      message: 'repomem: unexpected error: boom',
      code: 'UNEXPECTED',
    });
  });

  it('detects --json before a -- terminator only', () => {
    expect(wantsJson(['add', '--json'])).toBe(true);
    expect(wantsJson(['add', '--', '--json'])).toBe(false);
  });
});
