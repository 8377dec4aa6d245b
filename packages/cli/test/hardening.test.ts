// Why: the hardening classes as the CLI shows them, on every store: verified memories never come
// back from `search` (another repository's or invalidated ones), a pathological query is a usage
// error naming the limit (never a regular-expression crash), and memory text holding terminal
// escapes is printed as visible escapes while --json stays exact.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, jsonOf, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-hardening-');
afterAll(() => temp.remove());
let counter = 0;

function freshRepo(): string {
  counter += 1;
  const dir = join(temp.path, `r${counter}`);
  makeRepository(dir, { 'src/a.ts': 'export const A = 1;\n' });
  mkdirSync(join(dir, 'memory'));
  return dir;
}

const STORES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['directory', ['--store', 'dir:memory']],
  ['git', ['--store', 'git:.']],
  ['sqlite', ['--store', 'sqlite:data/memory.db']],
];

describe.each(STORES)('on the %s store', (_name, store) => {
  it('search never returns verified memories, of this repository or another', async () => {
    const cwd = freshRepo();
    for (const repo of ['acme/a', 'acme/b']) {
      const stored = await cli(
        [
          'memories',
          'store',
          ...store,
          '--repo',
          repo,
          '--subject',
          'Zebrafish',
          '--fact',
          `zebrafish in ${repo}`,
          '--cite',
          'src/a.ts:1',
        ],
        { cwd },
      );
      expect(stored.stderr).toBe('');
    }
    const added = await cli(
      ['update', 'add', ...store, '--repo', 'acme/a', '--file', 'MEMORY.md', '--section', 'Durable', 'zebrafish tank'],
      { cwd },
    );
    expect(added.code).toBe(0);
    const found = jsonOf(await cli(['search', '--json', ...store, '--repo', 'acme/a', 'zebrafish'], { cwd }));
    const results = found.results as { path: string }[];
    expect(results.map((result) => result.path)).toEqual(['MEMORY.md']);
  });

  it('a pathological query is a usage error naming the limit', async () => {
    const cwd = freshRepo();
    await cli(['update', 'add', ...store, '--file', 'MEMORY.md', '--section', 'Durable', 'term1'], { cwd });
    const many = Array.from({ length: 200 }, (_, index) => `t${index}`).join(' ');
    const terms = await cli(['search', ...store, many], { cwd });
    expect(terms.code).toBe(1);
    expect(terms.stderr).toContain('at most 64 are accepted');
    expect(terms.stderr.length).toBeLessThan(10_000);
    expect(terms.stderr).not.toContain('Invalid regular expression');
    const long = jsonOf(await cli(['search', '--json', ...store, '('.repeat(5000)], { cwd }));
    expect(long).toMatchObject({ ok: false, code: 'INVALID_ARGUMENT' });
    expect(String(long.message)).toContain('at most 1024 are accepted');
  });
});

describe('terminal escapes in memory text', () => {
  it('are printed as visible escapes; --json keeps the text exact', async () => {
    const cwd = freshRepo();
    const bullet = '- deploy \u001b[2J\u001b]0;owned\u0007 done \u009b31m';
    writeFileSync(join(cwd, 'memory', 'MEMORY.md'), `# Memory\n\n## Durable\n${bullet}\n`);
    const text = await cli(['search', '--store', 'dir:memory', 'deploy'], { cwd });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('\\u001b[2J\\u001b]0;owned\\u0007 done \\u009b31m');
    expect(text.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    const json = await cli(['search', '--json', '--store', 'dir:memory', 'deploy'], { cwd });
    expect(json.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(JSON.stringify(jsonOf(json))).toContain(JSON.stringify(bullet).slice(1, -1));
  });
});
