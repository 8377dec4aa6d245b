// Why: pins the order in which a store is chosen (flags before environment, then the embedded
// default), that specs and `--source` are resolved by their schemes in the CLI's registry, the
// repository slug rule, and the parsing of `--cite`, `memories` and branch-command arguments,
// without touching disk.

import { DEFAULT_STORE_REPO, DEFAULT_STORE_SPEC } from '@repomem/core';
import { describe, expect, it } from 'vitest';
import { parseArguments, stringOptions } from '../src/args.js';
import { formatCitation, parseCitationArgument } from '../src/citation-arg.js';
import { chooseCitationSource } from '../src/citation-source.js';
import { parseBranchArguments } from '../src/commands/branch-args.js';
import { parseMemoriesArguments } from '../src/commands/memories-args.js';
import { CliUsageError } from '../src/errors.js';
import { cliRegistry } from '../src/store-registry.js';
import { chooseRepo, chooseStore, documentRepoFor } from '../src/store-selection.js';

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('chooseStore', () => {
  const io = (env: Record<string, string> = {}) => ({ env, cwd: '/w' });

  it('defaults to the embedded SQLite store in the working directory', async () => {
    expect(DEFAULT_STORE_SPEC).toBe('sqlite:.repomem/repomem.db');
    expect(await chooseStore({}, io())).toMatchObject({
      kind: 'scoped',
      scheme: 'sqlite',
      label: 'sqlite:/w/.repomem/repomem.db',
      origin: 'default',
    });
  });

  it('resolves each spec once, by its scheme in the CLI registry (a git branch follows the last #)', async () => {
    expect(await chooseStore({ store: 'sqlite::memory:' }, io())).toMatchObject({ kind: 'scoped', scheme: 'sqlite' });
    expect(await chooseStore({ store: 'git:../r#agent/x' }, { env: {}, cwd: '/w/x' })).toMatchObject({
      kind: 'git',
      dir: '/w/r',
      branch: 'agent/x',
      label: 'git:/w/r#agent/x',
    });
    expect(await chooseStore({ store: 'git:/a#b/r#x' }, io())).toMatchObject({ dir: '/a#b/r', branch: 'x' });
    expect(await chooseStore({ store: 'git:r' }, io())).not.toHaveProperty('branch');
    expect(cliRegistry.storeSchemes()).toEqual([
      'agentcore',
      'dir',
      'dynamodb',
      'git',
      'postgres',
      'postgresql',
      'sqlite',
    ]);
  });

  it('orders --store, --dir, $REPOMEM_STORE, $MEMORY_DIR', async () => {
    const env = { REPOMEM_STORE: 'sqlite:env.db', MEMORY_DIR: 'envdir' };
    expect(await chooseStore({ store: 'git:r' }, io(env))).toMatchObject({ kind: 'git', origin: '--store' });
    expect(await chooseStore({ dir: 'd' }, io(env))).toMatchObject({
      kind: 'dir',
      directory: { display: 'd', absolute: '/w/d' },
      label: 'dir:/w/d',
      origin: '--dir',
    });
    expect(await chooseStore({}, io(env))).toMatchObject({
      kind: 'scoped',
      label: 'sqlite:/w/env.db',
      origin: 'REPOMEM_STORE',
    });
    expect(await chooseStore({}, io({ MEMORY_DIR: 'envdir' }))).toMatchObject({
      kind: 'dir',
      directory: { display: 'envdir' },
      origin: 'MEMORY_DIR',
    });
    expect(await chooseStore({ store: 'dir:m' }, io())).toMatchObject({
      kind: 'dir',
      directory: { display: 'm', absolute: '/w/m' },
    });
    expect(await chooseStore({}, io({ REPOMEM_STORE: '', MEMORY_DIR: '' }))).toMatchObject({ origin: 'default' });
  });

  it('refuses --store with --dir, and names a bad $REPOMEM_STORE', async () => {
    await expect(chooseStore({ store: 'dir:a', dir: 'b' }, io())).rejects.toThrow(
      new CliUsageError('--store and --dir both name a store; give only one'),
    );
    await expect(chooseStore({}, io({ REPOMEM_STORE: 'nope' }))).rejects.toThrow(
      /^\$REPOMEM_STORE: invalid store spec "nope"/,
    );
  });

  it.each([
    [' ', 'the spec is empty'],
    ['memory', 'no scheme (known: agentcore:, dir:, dynamodb:, git:, postgres:, postgresql:, sqlite:)'],
    ['s3:bucket', 'unknown scheme "s3:" (known: agentcore:, dir:, dynamodb:, git:, postgres:, postgresql:, sqlite:)'],
    ['git:.#', 'the branch after "#" is empty'],
  ])('refuses %j naming it (%s)', async (spec, problem) => {
    const refusal = chooseStore({ store: spec }, io());
    await expect(refusal).rejects.toThrow(problem);
    await expect(refusal).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('chooseRepo', () => {
  // Outside any clone: no origin remote to fall back on.
  const at = (env: Record<string, string> = {}) => ({ env, cwd: '/w', stderr: { write: () => true } });

  it('takes --repo, then $GITHUB_REPOSITORY, then local/default outside a clone', () => {
    expect(chooseRepo('a/b', at({ GITHUB_REPOSITORY: 'c/d' }))).toBe('a/b');
    expect(chooseRepo(undefined, at({ GITHUB_REPOSITORY: 'c/d' }))).toBe('c/d');
    expect(chooseRepo(undefined, at({}))).toBe(DEFAULT_STORE_REPO);
    expect(DEFAULT_STORE_REPO).toBe('local/default');
  });

  it('validates the slug and names its source', () => {
    expect(() => chooseRepo('nope', at({}))).toThrow(/^invalid --repo "nope": expected "owner\/repo"/);
    expect(() => chooseRepo('a/../b', at({}))).toThrow('invalid --repo');
    expect(() => chooseRepo(undefined, at({ GITHUB_REPOSITORY: 'x' }))).toThrow('invalid $GITHUB_REPOSITORY "x"');
  });

  it('ignores $GITHUB_REPOSITORY for directory and git stores', async () => {
    const dir = await chooseStore({ dir: 'm' }, { env: {}, cwd: '/w' });
    expect(documentRepoFor(dir, undefined, at({ GITHUB_REPOSITORY: 'bad' }))).toBe(DEFAULT_STORE_REPO);
    expect(() => documentRepoFor(dir, 'bad', at({}))).toThrow('invalid --repo "bad"');
  });
});

describe('parseCitationArgument', () => {
  it('reads path:start-end and path:line; the range follows the last colon', () => {
    expect(parseCitationArgument('src/a.ts:3-7')).toEqual({ path: 'src/a.ts', line_start: 3, line_end: 7 });
    expect(parseCitationArgument('./src/a.ts:12')).toEqual({ path: 'src/a.ts', line_start: 12, line_end: 12 });
    expect(parseCitationArgument('we:ird.ts:1-1')).toMatchObject({ path: 'we:ird.ts' });
    expect(formatCitation({ path: 'a', line_start: 2, line_end: 2 })).toBe('a:2');
    expect(formatCitation({ path: 'a', line_start: 2, line_end: 4 })).toBe('a:2-4');
  });

  it.each([
    ['a.ts', 'expected <path>:<start>-<end>'],
    ['a.ts:', 'the line range must be'],
    ['a.ts:x-2', 'the line range must be'],
    ['a.ts:5-3', 'line_end must be >= line_start'],
    ['a.ts:0', 'line_start must be >= 1'],
    ['../etc/passwd:1', '..'],
    ['src/../../x:1', '..'],
    ['/etc/passwd:1', 'passwd'],
    [':1', 'invalid --cite'],
  ])('refuses %j (%s)', (value, problem) => {
    expect(() => parseCitationArgument(value)).toThrow(CliUsageError);
    expect(() => parseCitationArgument(value)).toThrow(`invalid --cite ${JSON.stringify(value)}`);
    expect(() => parseCitationArgument(value)).toThrow(problem);
  });
});

describe('chooseCitationSource', () => {
  const io = { env: {}, cwd: '/x' };

  it('resolves dir:, git: with a ref, github through the registry, and lets --ref win', async () => {
    expect((await chooseCitationSource('dir:w', undefined, io)).label).toBe('dir:/x/w');
    expect(await chooseCitationSource('git:/r#v1', undefined, io)).toMatchObject({ label: 'git:/r#v1' });
    expect(await chooseCitationSource('git:/r#v1', 'v2', io)).toMatchObject({
      label: 'git:/r#v2',
      ref: 'v2',
      resolved: { target: { dir: '/r', ref: 'v2' } },
    });
    expect(await chooseCitationSource('github', 'main', io)).toMatchObject({ label: 'github#main', ref: 'main' });
    expect(cliRegistry.citationReaderSchemes()).toEqual(['dir', 'git', 'github']);
  });

  it('refuses unknown sources (naming the known ones) and a --ref for a directory', async () => {
    await expect(chooseCitationSource('svn:x', undefined, io)).rejects.toThrow(
      'invalid --source "svn:x": unknown scheme "svn:" (known: dir:, git:, github:)',
    );
    await expect(chooseCitationSource('git:', undefined, io)).rejects.toThrow('invalid --source "git:"');
    await expect(chooseCitationSource('dir:w', 'main', io)).rejects.toThrow(CliUsageError);
    await expect(chooseCitationSource('dir:w', 'main', io)).rejects.toThrow(
      '--ref main needs a git or github source (the citation source is the directory /x/w)',
    );
  });
});

describe('parseArguments with repeatable options', () => {
  it('keeps every value of a multiple option in order', () => {
    const parsed = parseArguments(['--cite', 'a:1', '--cite=b:2'], { cite: { type: 'string', multiple: true } });
    expect(stringOptions(parsed, 'cite')).toEqual(['a:1', 'b:2']);
  });
});

describe('parseMemoriesArguments', () => {
  it('parses store with several citations', () => {
    const request = parseMemoriesArguments([
      'store',
      '--repo',
      'a/b',
      '--subject',
      'S',
      '--fact',
      'F',
      '--cite',
      'x.ts:1-2',
      '--cite',
      'y.ts:3',
      '--scope',
      'src/',
      '--by',
      'agent-1',
      '--json',
    ]);
    expect(request).toMatchObject({
      help: false,
      repo: 'a/b',
      json: true,
      action: {
        kind: 'store',
        subject: 'S',
        fact: 'F',
        scope: 'src/',
        createdBy: 'agent-1',
        citations: [
          { path: 'x.ts', line_start: 1, line_end: 2 },
          { path: 'y.ts', line_start: 3, line_end: 3 },
        ],
      },
    });
  });

  it('parses the other subcommands', () => {
    expect(parseMemoriesArguments(['recent'])).toMatchObject({ action: { kind: 'recent', limit: 50 } });
    expect(parseMemoriesArguments(['search', 'jest', 'config', '--limit', '3'])).toMatchObject({
      action: { kind: 'search', query: 'jest config', limit: 3 },
    });
    expect(parseMemoriesArguments(['verify', '--all', '--ref', 'v1'])).toMatchObject({
      action: { kind: 'verify', target: { all: true, limit: 50 }, ref: 'v1' },
    });
    expect(parseMemoriesArguments(['verify', '--id', ID])).toMatchObject({ action: { target: { id: ID } } });
    expect(parseMemoriesArguments(['invalidate', '--id', ID, '--reason', 'gone'])).toMatchObject({
      action: { kind: 'invalidate', id: ID, reason: 'gone' },
    });
    expect(parseMemoriesArguments(['supersede', '--id', ID, '--fact', 'F2', '--cite', 'a:1'])).toMatchObject({
      action: { kind: 'supersede', id: ID, subject: undefined, fact: 'F2' },
    });
    expect(parseMemoriesArguments(['stats', '--store', 'sqlite:x.db'])).toMatchObject({
      store: 'sqlite:x.db',
      action: { kind: 'stats' },
    });
    expect(parseMemoriesArguments(['get', '-h'])).toEqual({ help: true });
  });

  it.each([
    [[], 'missing memories subcommand'],
    [['forget'], 'unknown memories subcommand: forget'],
    [['store', '--fact', 'F', '--cite', 'a:1'], '--subject is required for memories store'],
    [['store', '--subject', 'S', '--cite', 'a:1'], '--fact is required for memories store'],
    [['store', '--subject', 'S', '--fact', 'F'], '--cite <path>:<start>-<end> is required'],
    [['store', '--subject', 'S', '--fact', 'F', '--cite', 'a:9-2'], 'line_end must be >= line_start'],
    [['recent', '--fact', 'x'], 'option --fact does not apply to memories recent'],
    [['recent', 'extra'], 'unexpected argument for memories recent: extra'],
    [['recent', '--limit', '0'], '--limit must be a positive integer'],
    [['verify'], 'exactly one of --id <id> or --all'],
    [['verify', '--all', '--id', ID], 'exactly one of --id <id> or --all'],
    [['verify', '--id', ID, '--limit', '2'], '--limit applies to verify --all only'],
    [['get', '--id', 'NOT-A-UUID'], 'invalid --id "NOT-A-UUID": memory id must be a lowercase UUID'],
    [['invalidate', '--id', ID], '--reason is required for memories invalidate'],
    [['search'], 'a search query is required'],
  ])('refuses %j (%s)', (argv, message) => {
    expect(() => parseMemoriesArguments(argv)).toThrow(CliUsageError);
    expect(() => parseMemoriesArguments(argv)).toThrow(message);
  });
});

describe('parseBranchArguments', () => {
  it('parses each branch command', () => {
    expect(parseBranchArguments('history', ['MEMORY.md', '--limit', '5'])).toMatchObject({
      action: { kind: 'history', path: 'MEMORY.md', limit: 5 },
    });
    expect(parseBranchArguments('checkpoint', ['before', 'refactor', '--trailer', 'Task-Id=42'])).toMatchObject({
      action: { kind: 'checkpoint', note: 'before refactor', into: undefined, trailers: { 'Task-Id': '42' } },
    });
    expect(parseBranchArguments('commit', ['--into', 'm', '-m', 'msg'])).toMatchObject({
      action: { kind: 'commit', into: 'm', message: 'msg' },
    });
    expect(parseBranchArguments('mount', ['--into', 'm', '--store', 'git:.'])).toMatchObject({
      store: 'git:.',
      action: { kind: 'mount', into: 'm' },
    });
  });

  it.each([
    ['checkpoint', [], 'a checkpoint note is required'],
    ['checkpoint', ['n', '--trailer', 'nokey'], 'invalid --trailer "nokey"'],
    ['mount', [], '--into <dir> is required for mount'],
    ['commit', ['--into', 'm', 'extra'], 'unexpected argument for commit: extra'],
    ['history', ['a', 'b'], 'unexpected argument for history: b'],
    ['bootstrap', ['--into', 'x'], 'unknown option: --into'],
  ] as const)('%s %j is refused (%s)', (command, argv, message) => {
    expect(() => parseBranchArguments(command, argv)).toThrow(message);
  });
});
