// Why: the `repomem` binary bundles core and both stores into chunks; these runs prove the bundle
// loads `node:sqlite` (kept external with its `node:` prefix) and store-git's CommonJS
// dependencies at runtime, in a real child process.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeRepository } from './in-process.js';
import { assertBuilt, makeTempDir, repomem } from './support.js';

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
