// Why: end-to-end checks of the built `repomem` binary as agents run it: every update outcome's
// message, stream and exit code, --json, env fallbacks, init idempotency, search output, and
// bad input that must fail clearly and leave files untouched.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { assertBuilt, cleanEnv, makeTempDir, type RunResult, repomem, utcToday } from './support.js';

const temp = makeTempDir('repomem-cli-');
const root = temp.path;
let counter = 0;

/** A fresh empty memory directory `root/<name>`, returned as the relative name. */
function freshDir(): string {
  counter += 1;
  const name = `mem${counter}`;
  mkdirSync(join(root, name));
  return name;
}

const run = (args: readonly string[], env?: Record<string, string>): Promise<RunResult> =>
  repomem(args, { cwd: root, ...(env === undefined ? {} : { env: cleanEnv(env) }) });

const update = (dir: string, ...args: string[]): Promise<RunResult> => run(['update', ...args, '--dir', dir]);
const memoryFile = (dir: string): string => readFileSync(join(root, dir, 'MEMORY.md'), 'utf8');

function expectOk(result: RunResult, stdout: string): void {
  expect(result).toEqual({ code: 0, stdout: `${stdout}\n`, stderr: '' });
}

function expectFailure(result: RunResult, code: 1 | 2, stderr: string | RegExp): void {
  expect(result.code).toBe(code);
  expect(result.stdout).toBe('');
  if (typeof stderr === 'string') expect(result.stderr).toBe(stderr);
  else expect(result.stderr).toMatch(stderr);
}

/** Snapshot of every file under `dir` (path -> content), to prove a failure touched nothing. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (relative: string): void => {
    for (const entry of readdirSync(join(root, dir, relative), { withFileTypes: true })) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else files[path] = readFileSync(join(root, dir, path), 'utf8');
    }
  };
  walk('');
  return files;
}

beforeAll(() => assertBuilt());
afterAll(() => temp.remove());

describe('help, version and unknown commands', () => {
  it('prints the version from package.json', async () => {
    expectOk(await run(['--version']), packageJson.version);
    expectOk(await run(['-v']), packageJson.version);
  });

  it('prints help for the program and each command on stdout', async () => {
    for (const [args, first] of [
      [['--help'], 'Usage: repomem <command> [options]'],
      [['help'], 'Usage: repomem <command> [options]'],
      [['update', '--help'], 'Usage: repomem update <subcommand> [options] [text...]'],
      [['search', '-h'], 'Usage: repomem search'],
      [['init', '--help'], 'Usage: repomem init'],
      [['help', 'search'], 'Usage: repomem search'],
    ] as const) {
      const result = await run(args);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      expect(result.stdout.startsWith(first)).toBe(true);
    }
  });

  it('rejects a missing or unknown command with usage on stderr, exit 1', async () => {
    expectFailure(await run([]), 1, /^missing command\n\nUsage: repomem <command>/);
    expectFailure(await run(['remember', 'x']), 1, /^unknown command: remember\n\nUsage: repomem <command>/);
    expectFailure(await run(['update', 'add', '--bogus']), 1, /^unknown option: --bogus\n\nUsage: repomem update/);
  });
});

describe('repomem update: every outcome with Sepo messages, streams and exit codes', () => {
  it('walks add / duplicate / replace / collapse / remove / failures on one file', async () => {
    const dir = freshDir();
    const p = `${dir}/MEMORY.md`;
    const add = (text: string, section = 'Durable') =>
      update(dir, 'add', '--file', 'MEMORY.md', '--section', section, ...text.split(' '));

    expectOk(await add('use pnpm'), `added bullet to ${p}`);
    expect(memoryFile(dir)).toBe('# Memory\n\n## Durable\n- use pnpm\n');
    expectOk(await add('use pnpm'), `no change (duplicate): ${p}`);
    expectOk(await add('use vitest'), `added bullet to ${p}`);

    const replace = (match: string, withText: string) =>
      update(dir, 'replace', '--file', 'MEMORY.md', '--section', 'Durable', '--match', match, '--with', withText);
    expectOk(await replace('pnpm', 'use pnpm 10'), `replaced bullet in ${p}`);
    expectOk(await replace('pnpm 10', 'use vitest'), `collapsed duplicate bullet in ${p}`);
    expect(memoryFile(dir)).toBe('# Memory\n\n## Durable\n- use vitest\n');
    expectOk(await replace('vitest', 'use vitest'), `no change (duplicate): ${p}`);

    await add('run tests');
    await add('run lint');
    const remove = (match: string) =>
      update(dir, 'remove', '--file', 'MEMORY.md', '--section', 'Durable', '--match', match);
    expectFailure(await remove('run'), 2, `multiple bullets matched: run in ${p}\n- run tests\n- run lint\n`);
    expectFailure(await remove('zzz'), 2, `no bullet matched: zzz in ${p}\n`);
    expectOk(await remove('lint'), `removed bullet from ${p}`);
    expectFailure(
      await add('x', 'Elsewhere'),
      2,
      `section not found: Elsewhere in ${p}\navailable sections: Durable\n`,
    );
    expect(memoryFile(dir)).toBe('# Memory\n\n## Durable\n- use vitest\n- run tests\n');
  });

  it('reports a section header repeated twice with exit 2 and leaves the file untouched', async () => {
    const dir = freshDir();
    const content = '# Memory\n\n## Durable\n- a\n\n## Durable\n- b\n';
    writeFileSync(join(root, dir, 'MEMORY.md'), content);
    const result = await update(dir, 'add', '--file', 'MEMORY.md', '--section', 'Durable', 'c');
    expectFailure(result, 2, /^duplicate section: Durable in mem\d+\/MEMORY\.md \(headers on lines 3, 6\)/);
    expect(memoryFile(dir)).toBe(content);
  });

  it('appends to the UTC daily log', async () => {
    const dir = freshDir();
    const before = utcToday();
    const result = await update(dir, 'daily-append', 'shipped', 'the', 'CLI');
    const date = readdirSync(join(root, dir, 'daily'))[0]?.replace(/\.md$/, '');
    expect([before, utcToday()]).toContain(date);
    expectOk(result, `added bullet to ${dir}/daily/${date}.md`);
    expect(readFileSync(join(root, dir, 'daily', `${date}.md`), 'utf8')).toBe(
      `# Daily log for ${date}\n\n## Activity\n- shipped the CLI\n`,
    );
  });

  it('prints one JSON object, on stdout for successes and on stderr for failures, same exit codes', async () => {
    const dir = freshDir();
    const add = await update(dir, 'add', '--json', '--file', 'PROJECT.md', '--section', 'Stack', 'TypeScript');
    expect(add.code).toBe(0);
    expect(add.stderr).toBe('');
    expect(JSON.parse(add.stdout)).toEqual({
      ok: true,
      outcome: 'added',
      path: `${dir}/PROJECT.md`,
      message: `added bullet to ${dir}/PROJECT.md`,
      documentPath: 'PROJECT.md',
      bullet: '- TypeScript',
    });
    const miss = await update(dir, 'remove', '--json', '--file', 'PROJECT.md', '--section', 'Stack', '--match', 'go');
    expect(miss.code).toBe(2);
    expect(miss.stdout).toBe('');
    expect(JSON.parse(miss.stderr)).toMatchObject({ ok: false, outcome: 'no_match', match: 'go', section: 'Stack' });
    const usage = await update(dir, 'add', '--json', '--file', 'NOTES.md', '--section', 'S', 'x');
    expect(usage.code).toBe(1);
    expect(usage.stdout).toBe('');
    expect(JSON.parse(usage.stderr)).toEqual({
      ok: false,
      outcome: 'error',
      code: 'USAGE',
      message: '--file must be MEMORY.md or PROJECT.md (got "NOTES.md")',
    });
  });

  it('uses $MEMORY_DIR when --dir is absent, and the embedded SQLite store when neither is set', async () => {
    const dir = freshDir();
    const absolute = join(root, dir);
    const viaEnv = await run(['update', 'add', '--file', 'MEMORY.md', '--section', 'S', 'from env'], {
      MEMORY_DIR: absolute,
    });
    expectOk(viaEnv, `added bullet to ${absolute}/MEMORY.md`);
    // Intentional difference (issue 4): with no --dir, $MEMORY_DIR or --store, the default store is
    // sqlite:.repomem/repomem.db in the working directory, not the working directory itself.
    const viaDefault = await repomem(['update', 'add', '--file', 'MEMORY.md', '--section', 'S', 'from cwd'], {
      cwd: absolute,
    });
    expectOk(viaDefault, 'added bullet to MEMORY.md');
    expect(existsSync(join(absolute, '.repomem', 'repomem.db'))).toBe(true);
    expect(memoryFile(dir)).toBe('# Memory\n\n## S\n- from env\n');
    const flagWins = await run(['update', 'add', '--dir', dir, '--file', 'MEMORY.md', '--section', 'S', 'flag'], {
      MEMORY_DIR: join(root, 'does-not-exist'),
    });
    expectOk(flagWins, `added bullet to ${dir}/MEMORY.md`);
  });

  it('refuses writes with --read-only (exit 2, file untouched)', async () => {
    const dir = freshDir();
    await update(dir, 'add', '--file', 'MEMORY.md', '--section', 'S', 'kept');
    const before = snapshot(dir);
    const result = await update(dir, 'add', '--read-only', '--file', 'MEMORY.md', '--section', 'S', 'new');
    expectFailure(result, 2, /read-only/);
    expect(snapshot(dir)).toEqual(before);
  });
});

describe('repomem update: bad input fails clearly and touches nothing', () => {
  it.each([
    [
      ['add', '--file', '../x', '--section', 'S', 't'],
      1,
      /^--file must be MEMORY\.md or PROJECT\.md \(got "\.\.\/x"\)\n\nUsage/,
    ],
    [
      ['add', '--file', 'other.md', '--section', 'S', 't'],
      1,
      /^--file must be MEMORY\.md or PROJECT\.md \(got "other\.md"\)/,
    ],
    [['add', '--file', 'MEMORY.md', '--section', 'S', ''], 1, /^bullet text is required for add\n\nUsage/],
    [['add', '--file', 'MEMORY.md', '--section', 'S', '-'], 1, /^text must be non-empty\n\nUsage/],
    [['add', '--file', 'MEMORY.md', '--section', 'a\nb', 't'], 1, /^section must be a single line/],
    [['replace', '--file', 'MEMORY.md', '--section', 'S', '--match', 'x'], 1, /^--with is required for replace/],
    [['append', 't'], 1, /^unknown update subcommand: append/],
  ] as const)('%j -> exit %i', async (args, code, stderr) => {
    const dir = freshDir();
    writeFileSync(join(root, dir, 'MEMORY.md'), '# Memory\n\n## S\n- one\n');
    const before = snapshot(dir);
    const parentBefore = readdirSync(root).sort();
    expectFailure(await update(dir, ...args), code, stderr);
    expect(snapshot(dir)).toEqual(before);
    expect(readdirSync(root).sort()).toEqual(parentBefore);
  });

  it('never lets text that looks like an option switch the target (a repeated option is exit 1)', async () => {
    const dir = freshDir();
    const other = freshDir();
    writeFileSync(join(root, dir, 'MEMORY.md'), '# Memory\n\n## Durable\n- one\n');
    const before = snapshot(dir);
    const add = ['update', 'add', '--dir', dir, '--file', 'MEMORY.md', '--section', 'Durable', 'note'];
    for (const tail of [[`--dir=${other}`], ['--dir', other], ['--store', `dir:${other}`], ['--file=PROJECT.md']]) {
      const result = await run([...add, ...tail]);
      expect(result.code, tail.join(' ')).toBe(1);
      expect(result.stderr).toMatch(/^(option --(dir|file) is given twice|--store and --dir both name a store)/);
    }
    expect(snapshot(dir)).toEqual(before);
    expect(readdirSync(join(root, other))).toEqual([]);
    expectOk(await run([...add, '--', `--dir=${other}`]), `added bullet to ${dir}/MEMORY.md`);
    expect(memoryFile(dir)).toContain(`- note --dir=${other}\n`);
    expect(readdirSync(join(root, other))).toEqual([]);
  });

  it('names a memory directory that does not exist or is a file (exit 2)', async () => {
    writeFileSync(join(root, 'plain.txt'), 'not a directory');
    const add = ['add', '--file', 'MEMORY.md', '--section', 'S', 't'];
    expectFailure(await update('missing-dir', ...add), 2, `Memory directory not found: ${join(root, 'missing-dir')}\n`);
    expectFailure(await update('plain.txt', ...add), 2, `Memory path is not a directory: ${join(root, 'plain.txt')}\n`);
    expect(readdirSync(root)).not.toContain('missing-dir');
    expect(readFileSync(join(root, 'plain.txt'), 'utf8')).toBe('not a directory');
  });
});

describe('repomem init', () => {
  it('creates a missing directory and the seed files once, then changes nothing', async () => {
    const first = await run(['init', '--dir', 'fresh/nested']);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('created fresh/nested/MEMORY.md\n');
    expect(first.stdout).toContain('created fresh/nested/daily/.gitkeep\n');
    expect(first.stdout).toMatch(/initialised memory tree in fresh\/nested \(5 created, 0 already present\)\n$/);
    writeFileSync(join(root, 'fresh/nested/MEMORY.md'), '# Memory\n\n## S\n- mine\n');
    const before = snapshot('fresh/nested');
    expectOk(
      await run(['init', '--dir', 'fresh/nested']),
      'memory tree already initialised in fresh/nested (nothing created)',
    );
    const json = await run(['init', '--dir', 'fresh/nested', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      ok: true,
      memoryDir: join(root, 'fresh/nested'),
      created: [],
      existing: ['daily/.gitkeep', 'github/.gitkeep', 'PROJECT.md', 'MEMORY.md', 'README.md'],
    });
    expect(snapshot('fresh/nested')).toEqual(before);
  });

  it('fails with exit 2 when --dir is a file', async () => {
    writeFileSync(join(root, 'init-file.txt'), 'x');
    expectFailure(
      await run(['init', '--dir', 'init-file.txt']),
      2,
      `Memory path is not a directory: ${join(root, 'init-file.txt')}\n`,
    );
  });
});

describe('repomem search', () => {
  it("gives a filename-only match Sepo's snippet: line 0 in JSON, Path match in text", async () => {
    const dir = freshDir();
    mkdirSync(join(root, dir, 'github'), { recursive: true });
    writeFileSync(join(root, dir, 'github', 'pull-209.json'), '{"title": "Fix the flaky test"}');
    const json = await run(['search', '--dir', dir, '--json', 'pull']);
    const hit = JSON.parse(json.stdout).results[0];
    expect(hit.path).toBe('github/pull-209.json');
    expect(hit.snippets).toEqual([{ lineNumber: 0, text: '(matched by filename)', score: hit.score, matchCount: 1 }]);
    const text = await run(['search', '--dir', dir, 'pull']);
    expect(text.stdout).toContain('\n  Path match: (matched by filename)\n');
  });

  let dir: string;
  beforeAll(() => {
    dir = freshDir();
    const at = (path: string) => join(root, dir, path);
    writeFileSync(at('MEMORY.md'), '# Memory\n\n## Durable\n- the flaky test lives in ci.yml\n- use pnpm\n');
    writeFileSync(at('PROJECT.md'), '# Project\n\n## Stack\n- TypeScript and pnpm\n');
    mkdirSync(at('daily'));
    writeFileSync(at('daily/2026-01-02.md'), '# Daily log for 2026-01-02\n\n## Activity\n- fixed a flaky test\n');
  });

  it('prints Sepo-style text with the absolute directory', async () => {
    const result = await run(['search', '--dir', dir, 'flaky']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`Memory search: "flaky"  (2 files in ${join(root, dir)})`);
    expect(lines[1]).toBe('');
    expect(lines[2]).toMatch(/^## (MEMORY\.md|daily\/2026-01-02\.md) {2}\(score=[\d.]+, matches=1\)$/);
    expect(lines[3]).toBe('Matched terms: flaky');
    expect(lines[4]).toMatch(/^ {2}L\d+: - /);
    expect(result.stdout).toContain('  L4: - the flaky test lives in ci.yml');
    expect(result.stdout.endsWith('\n')).toBe(true);
  });

  it('says when nothing matched', async () => {
    expectOk(
      await run(['search', '--dir', dir, 'kubernetes']),
      `Memory search: "kubernetes"  (0 files in ${join(root, dir)})\n\n_No matches found._`,
    );
  });

  it('prints --json with absolute paths, honours --limit and $MEMORY_QUERY', async () => {
    const result = await run(['search', '--json', '--limit', '1', '--snippets=1', '--dir', dir], {
      MEMORY_QUERY: 'pnpm',
    });
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({ query: 'pnpm', memoryDir: join(root, dir), resultCount: 1 });
    expect(json.results).toHaveLength(1);
    const [hit] = json.results;
    expect(hit.absolutePath).toBe(join(root, dir, hit.path));
    expect(hit.matchedTerms).toEqual(['pnpm']);
    expect(hit.snippets).toHaveLength(1);
    expect(hit.snippets[0]).toMatchObject({ lineNumber: expect.any(Number), text: expect.stringContaining('pnpm') });
  });

  it.each([
    [['search', '--dir', '.'], /^Missing search query\.\n\nUsage: repomem search/],
    [['search', '--limit', '0', 'q'], /^--limit must be a positive integer \(got "0"\)\n\nUsage/],
    [['search', '--snippets', 'many', 'q'], /^--snippets must be a positive integer \(got "many"\)/],
    [['search', '--limit'], /^option --limit requires a value/],
  ])('%j is a usage error', async (args, stderr) => {
    expectFailure(await run(args), 1, stderr);
  });

  it("names a missing memory directory in Sepo's words, stdout empty (exit 2)", async () => {
    const expected = `Memory directory not found: ${join(root, 'nowhere')}\n`;
    expectFailure(await run(['search', '--dir', 'nowhere', 'q']), 2, expected);
    // With --json too: stdout stays empty, the error object goes to stderr.
    const json = await run(['search', '--json', '--dir', 'nowhere', 'q']);
    expect(json.code).toBe(2);
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr)).toMatchObject({ ok: false, outcome: 'error', message: expected.trimEnd() });
  });
});

const FIXTURE =
  process.env.REPOMEM_FIXTURE_TREE ??
  resolve(fileURLToPath(new URL('../../..', import.meta.url)), '../shared/fixtures/sepo-memory-tree');

describe.skipIf(!existsSync(FIXTURE))('repomem search over the real Sepo memory tree (copied to a temp dir)', () => {
  it('answers in text and JSON, with readable field snippets for JSON mirror files', async () => {
    cpSync(FIXTURE, join(root, 'fixture'), { recursive: true });
    const text = await run(['search', '--dir', 'fixture', 'flaky', 'test']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Memory search: "flaky test" {2}\(5 files in .*fixture\)\n\n## /);
    const json = await run(['search', '--dir', 'fixture', '--json', 'flaky', 'test']);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.resultCount).toBe(5);
    const jsonHit = parsed.results.find((hit: { path: string }) => hit.path.endsWith('.json'));
    expect(jsonHit.snippets[0].field).toEqual(expect.any(String));
    expect(jsonHit.snippets[0].text.startsWith(`${jsonHit.snippets[0].field}: `)).toBe(true);
  });
});
