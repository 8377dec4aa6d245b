// Why: a credential an agent passes to `repomem update` must not reach memory on any store: the
// CLI reports SECRET_DETECTED (exit 2) naming the file, line and rule, never the credential, and
// nothing is written.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, git, jsonOf, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-secrets-');
afterAll(() => temp.remove());
let count = 0;

/** Fake credentials built from parts, so this file holds no credential-shaped string. */
const FAKES: ReadonlyArray<{ rule: string; text: string; secret: string }> = [
  { rule: 'aws-access-token', secret: ['AKIA', 'Z3MFQW5XJ7P2K4LT'].join(''), text: 'AWS key id ' },
  { rule: 'github-pat', secret: ['gh', 'p_', 'R8vXk2mQ9tL4wZ7pB3nC6yH1sD5fG0jK2aE4'].join(''), text: 'use token ' },
  {
    rule: 'slack-bot-token',
    secret: ['xo', 'xb-2817361934-4729183650274-', 'Hq8ZkR2mVt5XwP9bLc3NdF7Y'].join(''),
    text: 'slack bot ',
  },
];

const stores: ReadonlyArray<{ name: string; setup: (cwd: string) => string[] }> = [
  { name: 'dir', setup: () => ['--dir', 'memory'] },
  { name: 'sqlite', setup: () => ['--store', 'sqlite:memory.db'] },
  {
    name: 'git',
    setup: (cwd) => {
      makeRepository(join(cwd, 'repo'), { 'README.md': '# repo\n' });
      return ['--store', 'git:repo'];
    },
  },
];

describe('repomem update refuses credentials on every store', () => {
  for (const store of stores) {
    it(`${store.name}: SECRET_DETECTED naming file, line and rule; nothing written; the secret is never printed`, async () => {
      count += 1;
      const cwd = join(temp.path, `${store.name}-${count}`);
      mkdirSync(join(cwd, 'memory'), { recursive: true });
      const args = store.setup(cwd);
      expect((await cli(['init', ...args], { cwd })).code).toBe(0);
      for (const fake of FAKES) {
        const add = ['update', 'add', ...args, '--file', 'MEMORY.md', '--section', 'Conventions', '--'];
        const text = await cli([...add, `${fake.text}${fake.secret}`], { cwd });
        expect(text.code).toBe(2);
        expect(text.stderr).toMatch(new RegExp(`MEMORY\\.md line \\d+ .*rule ${fake.rule}`));
        expect(text.stdout + text.stderr).not.toContain(fake.secret.slice(4));
        const json = await cli([...add.slice(0, -1), '--json', '--', `${fake.text}${fake.secret}`], { cwd });
        expect(jsonOf(json)).toMatchObject({ ok: false, code: 'SECRET_DETECTED' });
        expect(json.stdout + json.stderr).not.toContain(fake.secret.slice(4));
      }
      const search = await cli(['search', ...args, 'token'], { cwd });
      expect(search.stdout).not.toContain('use token');
      if (store.name === 'dir') {
        expect(readFileSync(join(cwd, 'memory', 'MEMORY.md'), 'utf8')).not.toContain('token');
      }
      if (store.name === 'git') {
        expect(git(join(cwd, 'repo'), 'show', 'agent/memory:MEMORY.md')).not.toContain('use token');
        git(join(cwd, 'repo'), 'fsck', '--strict');
      }
      expect(existsSync(join(cwd, 'memory.db')) || store.name !== 'sqlite').toBe(true);
    });
  }
});
