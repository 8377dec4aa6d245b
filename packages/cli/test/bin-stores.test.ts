// Why: the `repomem` binary bundles core and the store packages into chunks; these runs prove the
// bundle loads `node:sqlite` (kept external with its `node:` prefix) and store-git's CommonJS
// dependencies at runtime, and resolves specs through its registry, in a real child process.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeRepository } from './in-process.js';
import { assertBuilt, BIN, makeTempDir, repomem } from './support.js';

const temp = makeTempDir('repomem-cli-bin-stores-');
beforeAll(() => assertBuilt());
afterAll(() => temp.remove());

it('memories store and stats --json run from the built binary on the default SQLite store', async () => {
  const repo = join(temp.path, 'repo');
  makeRepository(repo, { 'src/a.ts': 'export const A = 1;\n' });
  const stored = await repomem(
    ['memories', 'store', '--repo', 'acme/app', '--subject', 'A', '--fact', 'A is one', '--cite', 'src/a.ts:1'],
    { cwd: repo },
  );
  expect(stored.stderr).toBe('');
  expect(stored.code).toBe(0);
  expect(existsSync(join(repo, '.repomem', 'repomem.db'))).toBe(true);
  const stats = await repomem(['memories', 'stats', '--repo', 'acme/app', '--json'], { cwd: repo });
  expect(stats.code).toBe(0);
  expect(JSON.parse(stats.stdout)).toEqual({
    ok: true,
    outcome: 'stats',
    repo: 'acme/app',
    byStatus: { active: 1, invalid: 0, superseded: 0 },
    expired: 0,
    events: {
      created: 1,
      retrieved: 0,
      verified_valid: 0,
      verified_invalid: 0,
      corrected: 0,
      refreshed: 0,
      superseded: 0,
      applied: 0,
    },
    verificationSuccessRate: null,
  });
});

it('update and search through the binary on a git store', async () => {
  const repo = join(temp.path, 'git-store');
  makeRepository(repo, { 'README.md': '# x\n' });
  const add = await repomem(
    ['update', 'add', '--store', 'git:.', '--file', 'MEMORY.md', '--section', 'Durable', 'Bundled git works'],
    { cwd: repo },
  );
  expect(add).toEqual({ code: 0, stdout: 'added bullet to MEMORY.md\n', stderr: '' });
  const search = await repomem(['search', '--store', 'git:.', 'bundled'], { cwd: repo });
  expect(search.code).toBe(0);
  expect(search.stdout).toContain('- Bundled git works');
});

it('the binary resolves specs through its registry: unknown schemes listed, the bundled PostgreSQL store used, no password shown', async () => {
  const cwd = join(temp.path, 'specs');
  mkdirSync(cwd);
  const unknown = await repomem(['--store', 'nosuch:x', 'search', 'q'], { cwd });
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toMatch(
    /^invalid store spec "nosuch:x": unknown scheme "nosuch:" \(known: agentcore:, dir:, dynamodb:, git:, postgres:, postgresql:, sqlite:\)\n/,
  );
  const postgres = await repomem(['search', '--store', 'postgres://user:secret@host/db', 'q'], { cwd });
  expect(postgres.code).toBe(1);
  // The binary carries the PostgreSQL store: an unreachable server is named, never the password.
  expect(postgres.stderr).toContain('cannot reach PostgreSQL at host:5432');
  expect(`${postgres.stdout}${postgres.stderr}`).not.toContain('secret');
  expect(readdirSync(cwd)).toEqual([]);
});

/** Every file the binary can load: bin.js and the chunks it imports, statically or on demand. */
function binaryFiles(): string[] {
  const dist = dirname(BIN);
  const seen = new Set<string>();
  const pending = ['bin.js'];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (seen.has(name)) continue;
    seen.add(name);
    const text = readFileSync(join(dist, name), 'utf8');
    for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["']\.\/([\w.-]+\.js)["']/g)) {
      pending.push(match[1] as string);
    }
  }
  return [...seen].map((name) => join(dist, name));
}

it('holds one copy of each error class and imports no repomem package at run time', () => {
  const files = binaryFiles();
  expect(files.length).toBeGreaterThan(10);
  const text = files.map((file) => readFileSync(file, 'utf8')).join('\n');
  for (const name of ['RepomemError', 'CliUsageError', 'CliDataError']) {
    expect(text.match(new RegExp(`\\bname\\s*=\\s*["']${name}["']`, 'g'))).toHaveLength(1);
  }
  expect(text).not.toMatch(/from\s*["']@repomem\//);
  expect(text).not.toMatch(/import\(\s*["']@repomem\//);
});
