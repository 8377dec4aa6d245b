// Why: pins the argument conventions (Sepo's `--flag value` / `--flag=value`, positionals joined
// by one space, env fallbacks) and every usage error message, without touching the disk.
import { describe, expect, it } from 'vitest';
import { parseArguments, parsePositiveInteger } from '../src/args.js';
import { parseInitArguments } from '../src/commands/init-args.js';
import { parseSearchArguments } from '../src/commands/search-args.js';
import { parseUpdateArguments } from '../src/commands/update-args.js';
import { CliUsageError } from '../src/errors.js';

const specs = { dir: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

describe('parseArguments', () => {
  it('accepts --flag value, --flag=value, switches, short aliases and keeps positionals in order', () => {
    const parsed = parseArguments(['a', '--dir', 'd1', 'b', '--json', '-h', 'c'], specs);
    expect(parsed.values).toEqual({ dir: 'd1', json: true, help: true });
    expect(parsed.positionals).toEqual(['a', 'b', 'c']);
    expect(parseArguments(['--dir=x=y'], specs).values.dir).toBe('x=y');
    expect(parseArguments(['--dir='], specs).values.dir).toBe('');
  });

  it('refuses a repeated option instead of letting a later value switch the first', () => {
    expect(() => parseArguments(['--dir', 'a', '--dir', 'b'], specs)).toThrow(
      new CliUsageError(
        'option --dir is given twice ("a", then "b"); give it once (put text that starts with -- after a -- argument)',
      ),
    );
    expect(() => parseArguments(['--dir=a', 'note', '--dir=a'], specs)).toThrow(
      new CliUsageError('option --dir is given twice; give it once'),
    );
    expect(parseArguments(['--json', 'x', '--json'], specs).values.json).toBe(true);
    expect(parseArguments(['--dir', 'a', 'note', '--', '--dir=b'], specs)).toEqual({
      values: { dir: 'a' },
      positionals: ['note', '--dir=b'],
    });
  });

  it('accepts values starting with a dash, but not another known option', () => {
    expect(parseArguments(['--dir', '- foo'], specs).values.dir).toBe('- foo');
    expect(parseArguments(['--dir', '-x'], specs).values.dir).toBe('-x');
    expect(() => parseArguments(['--dir', '--json'], specs)).toThrow('option --dir requires a value');
    expect(() => parseArguments(['--dir'], specs)).toThrow('option --dir requires a value');
  });

  it('treats everything after -- as positionals', () => {
    expect(parseArguments(['--json', '--', '--dir', '-h'], specs)).toEqual({
      values: { json: true },
      positionals: ['--dir', '-h'],
    });
  });

  it('rejects unknown options and values given to switches', () => {
    expect(() => parseArguments(['--nope'], specs)).toThrow(new CliUsageError('unknown option: --nope'));
    expect(() => parseArguments(['-x'], specs)).toThrow('unknown option: -x');
    expect(() => parseArguments(['--json=yes'], specs)).toThrow('option --json does not take a value');
  });

  it('leaves lone dashes and negative numbers as positionals', () => {
    expect(parseArguments(['-', '-5'], specs).positionals).toEqual(['-', '-5']);
  });
});

describe('parsePositiveInteger', () => {
  it('accepts positive integers', () => {
    expect(parsePositiveInteger('7', '--limit')).toBe(7);
    expect(parsePositiveInteger(' 12 ', '--limit')).toBe(12);
  });
  it.each(['0', '-1', '1.5', '5x', '', 'abc', '1e3', '99999999999999999999'])('rejects %j', (value) => {
    expect(() => parsePositiveInteger(value, '--limit')).toThrow(/^--limit must be a positive integer/);
  });
});

describe('parseUpdateArguments', () => {
  it('parses add with the bullet text joined by one space', () => {
    expect(
      parseUpdateArguments(['add', '--file', 'MEMORY.md', '--section=Durable', 'use', ' pnpm ', '--dir', 'mem']),
    ).toEqual({
      help: false,
      dir: 'mem',
      json: false,
      readOnly: false,
      operation: { kind: 'add', file: 'MEMORY.md', section: 'Durable', text: 'use  pnpm' },
    });
  });

  it('parses replace, remove and daily-append with their fields', () => {
    const replace = parseUpdateArguments([
      'replace',
      '--file',
      'PROJECT.md',
      '--section',
      'S',
      '--match',
      '- old',
      '--with',
      'new',
      '--json',
    ]);
    expect(replace).toMatchObject({
      json: true,
      operation: { kind: 'replace', file: 'PROJECT.md', section: 'S', match: '- old', with: 'new' },
    });
    expect(parseUpdateArguments(['remove', '--file', 'MEMORY.md', '--section', 'S', '--match', 'x'])).toMatchObject({
      operation: { kind: 'remove', match: 'x' },
    });
    expect(parseUpdateArguments(['daily-append', '--read-only', 'did', 'things'])).toMatchObject({
      readOnly: true,
      operation: { kind: 'daily-append', text: 'did things' },
    });
  });

  it('never lets text after the bullet switch the target: a repeated or conflicting option is an error', () => {
    const argv = ['add', '--dir', 'mem', '--file', 'MEMORY.md', '--section', 'Durable', 'note'];
    expect(() => parseUpdateArguments([...argv, '--dir=other'])).toThrow(/option --dir is given twice/);
    expect(() => parseUpdateArguments([...argv, '--file', 'PROJECT.md'])).toThrow(/option --file is given twice/);
    expect(() => parseUpdateArguments([...argv, '--section=Other'])).toThrow(/option --section is given twice/);
    expect(parseUpdateArguments([...argv, '--', '--dir=other'])).toMatchObject({
      dir: 'mem',
      operation: { kind: 'add', text: 'note --dir=other' },
    });
  });

  it('returns help without validating the rest', () => {
    expect(parseUpdateArguments(['--help'])).toEqual({ help: true });
    expect(parseUpdateArguments(['add', '-h'])).toEqual({ help: true });
  });

  it.each([
    [[], 'missing update subcommand: add, replace, remove or daily-append'],
    [['append', 'x'], 'unknown update subcommand: append (expected add, replace, remove or daily-append)'],
    [['add', '--section', 'S', 'x'], '--file is required for add'],
    [['add', '--file', 'MEMORY.md', 'x'], '--section is required for add'],
    [['add', '--file', 'MEMORY.md', '--section', 'S'], 'bullet text is required for add'],
    [['add', '--file', 'MEMORY.md', '--section', 'S', '  ', ''], 'bullet text is required for add'],
    [['add', '--file', 'MEMORY.md', '--section', '  ', 'x'], '--section is required for add'],
    [['replace', '--file', 'MEMORY.md', '--section', 'S', '--with', 'y'], '--match is required for replace'],
    [['replace', '--file', 'MEMORY.md', '--section', 'S', '--match', 'x'], '--with is required for replace'],
    [['remove', '--file', 'MEMORY.md', '--section', 'S'], '--match is required for remove'],
    [['daily-append'], 'bullet text is required for daily-append'],
    [['add', '--file', '../x', '--section', 'S', 'x'], '--file must be MEMORY.md or PROJECT.md (got "../x")'],
    [['add', '--file', 'other.md', '--section', 'S', 'x'], '--file must be MEMORY.md or PROJECT.md (got "other.md")'],
    [['add', '--file=', '--section', 'S', 'x'], '--file must be MEMORY.md or PROJECT.md (got "")'],
    [['add', '--file', 'memory.md', '--section', 'S', 'x'], '--file must be MEMORY.md or PROJECT.md (got "memory.md")'],
  ])('rejects %j with %j', (argv, message) => {
    expect(() => parseUpdateArguments(argv)).toThrow(new CliUsageError(message));
  });
});

describe('parseSearchArguments', () => {
  it('joins the query, applies defaults and validates numbers', () => {
    expect(parseSearchArguments(['flaky', 'test', '--limit', '2', '--snippets=1', '--json'], {})).toEqual({
      help: false,
      query: 'flaky test',
      dir: undefined,
      limit: 2,
      snippets: 1,
      json: true,
    });
    expect(parseSearchArguments(['q'], {})).toMatchObject({ limit: 5, snippets: 3, json: false });
  });

  it('falls back to MEMORY_QUERY only when no positional query is given', () => {
    expect(parseSearchArguments([], { MEMORY_QUERY: ' from env ' })).toMatchObject({ query: 'from env' });
    expect(parseSearchArguments(['given'], { MEMORY_QUERY: 'env' })).toMatchObject({ query: 'given' });
  });

  it('rejects an empty query and malformed numbers', () => {
    expect(() => parseSearchArguments([], {})).toThrow(new CliUsageError('Missing search query.'));
    expect(() => parseSearchArguments(['  '], { MEMORY_QUERY: ' ' })).toThrow('Missing search query.');
    expect(() => parseSearchArguments(['q', '--limit', '0'], {})).toThrow(
      '--limit must be a positive integer (got "0")',
    );
    expect(() => parseSearchArguments(['q', '--snippets', 'x'], {})).toThrow('--snippets must be a positive integer');
  });
});

describe('parseInitArguments', () => {
  it('parses --dir and --json and rejects positionals', () => {
    expect(parseInitArguments(['--dir', 'm', '--json'])).toEqual({ help: false, dir: 'm', json: true });
    expect(() => parseInitArguments(['m'])).toThrow('unexpected argument for init: m (use --dir <path>)');
  });
});
