// Why: the commit gates of checkout mode, one class of file each: over 1 MiB, secrets by name,
// ignored paths (the auto-maintained .gitignore), symlinks. What a gate stops never reaches the
// branch (checked with the git CLI) and is reported by name; the files stay on disk.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IgnoreRules, secretPattern } from '../src/checkout/gates.js';
import {
  bootstrapMemoryBranch,
  commitMountedTree,
  MAX_COMMIT_FILE_BYTES,
  mountMemoryBranch,
  SECRET_FILE_PATTERNS,
} from '../src/index.js';
import { freshDirectory, freshRepository, fsckStrict, git, lsTree, removeDirectory } from './support.js';

const BRANCH = 'agent/memory';
let dir: string;
let scratch: string;
let into: string;

const write = (path: string, content: string | Buffer): void => {
  mkdirSync(join(into, path, '..'), { recursive: true });
  writeFileSync(join(into, path), content);
};
const tip = (): string => git(dir, ['rev-parse', BRANCH]);
const seedPaths = ['.gitignore', 'MEMORY.md', 'PROJECT.md', 'README.md', 'daily/.gitkeep', 'github/.gitkeep'];

beforeEach(async () => {
  dir = await freshRepository();
  await bootstrapMemoryBranch({ dir });
  scratch = await freshDirectory('repomem-gates-');
  into = join(scratch, 'memory');
  await mountMemoryBranch({ dir, into });
});
afterEach(async () => {
  await removeDirectory(dir);
  await removeDirectory(scratch);
});

/** Write `files`, commit, and expect only `notes.md` committed plus the given skip reasons. */
async function expectGated(
  files: Record<string, string | Buffer>,
  skipped: [string, string][],
  alsoChanged: { path: string; status: string }[] = [],
): Promise<void> {
  for (const [path, content] of Object.entries(files)) write(path, content);
  write('notes.md', '- committed\n');
  const outcome = await commitMountedTree({ into });
  expect(outcome.status).toBe('committed');
  if (outcome.status !== 'committed') return;
  expect(outcome.changed).toEqual([...alsoChanged, { path: 'notes.md', status: 'added' }]);
  expect(outcome.skipped.map((skip) => [skip.path, skip.reason])).toEqual(skipped);
  for (const skip of outcome.skipped) expect(skip.message).toContain(skip.path);
  const added = alsoChanged.filter((change) => change.status === 'added').map((change) => change.path);
  expect(lsTree(dir, BRANCH).sort()).toEqual([...seedPaths, ...added, 'notes.md'].sort());
  expect(fsckStrict(dir)).toBe('');
  for (const path of Object.keys(files)) expect(existsSync(join(into, path))).toBe(true);
}

describe('commit gates', () => {
  it('skips a file of 1 MiB + 1 byte with a warning; exactly 1 MiB is committed', async () => {
    write('exact.bin', Buffer.alloc(MAX_COMMIT_FILE_BYTES, 0x61));
    await expectGated(
      { 'big.bin': Buffer.alloc(MAX_COMMIT_FILE_BYTES + 1, 0x61) },
      [['big.bin', 'too_large']],
      [{ path: 'exact.bin', status: 'added' }],
    );
    expect(git(dir, ['cat-file', '-s', `${BRANCH}:exact.bin`])).toBe(String(MAX_COMMIT_FILE_BYTES));
  });

  it('never commits secrets, reported by name', async () => {
    await expectGated(
      {
        '.env': 'TOKEN=1\n',
        'config/.env.local': 'TOKEN=2\n',
        'keys/id_rsa': 'PRIVATE\n',
        'keys/id_ed25519.pub': 'ssh-ed25519 AAAA\n',
        'certs/server.pem': 'PEM\n',
        'certs/tls.key': 'KEY\n',
        '.npmrc': '//registry.npmjs.org/:_authToken=x\n',
        'gcp/credentials-prod.json': '{}\n',
        'store.p12': 'x',
      },
      [
        ['.env', 'secret'],
        ['.npmrc', 'secret'],
        ['certs/server.pem', 'secret'],
        ['certs/tls.key', 'secret'],
        ['config/.env.local', 'secret'],
        ['gcp/credentials-prod.json', 'secret'],
        ['keys/id_ed25519.pub', 'secret'],
        ['keys/id_rsa', 'secret'],
        ['store.p12', 'secret'],
      ],
    );
  });

  it('never commits secrets by place: .envrc, .env/production, .docker/config.json, kubeconfig, tfstate backups', async () => {
    await expectGated(
      {
        '.envrc': 'export TOKEN=1\n',
        '.env/production': 'TOKEN=2\n',
        'ops/.docker/config.json': '{"auths":{}}\n',
        'ops/kubeconfig': 'apiVersion: v1\n',
        'ops/.kube/config': 'apiVersion: v1\n',
        'infra/terraform.tfstate.backup': '{}\n',
      },
      [
        ['.env/production', 'secret'],
        ['.envrc', 'secret'],
        ['infra/terraform.tfstate.backup', 'secret'],
        ['ops/.docker/config.json', 'secret'],
        ['ops/.kube/config', 'secret'],
        ['ops/kubeconfig', 'secret'],
      ],
    );
  });

  it('never commits a file whose content holds a credential, naming line and rule, never the secret', async () => {
    const token = ['gh', 'p_', 'R8vXk2mQ9tL4wZ7pB3nC6yH1sD5fG0jK2aE4'].join('');
    const key = ['AKIA', 'Z3MFQW5XJ7P2K4LT'].join('');
    write('MEMORY.md', `# Memory\n\n- use ${token} for the API\n`);
    await expectGated({ 'notes/aws.md': `# AWS\n- id ${key}\n` }, [
      ['MEMORY.md', 'secret'],
      ['notes/aws.md', 'secret'],
    ]);
    const outcome = await commitMountedTree({ into });
    expect(outcome.status).toBe('nothing_to_commit');
    if (outcome.status !== 'nothing_to_commit') return;
    const messages = outcome.skipped.map((skip) => skip.message).join('\n');
    expect(messages).toContain('MEMORY.md: line 3');
    expect(messages).toContain('rule github-pat');
    expect(messages).toContain('notes/aws.md: line 2');
    expect(messages).not.toContain(token.slice(4));
    expect(messages).not.toContain(key.slice(4));
    expect(git(dir, ['show', `${BRANCH}:MEMORY.md`])).not.toContain(token);
  });

  it('never commits ignored paths: transcripts/, media/, *.tmp (the whole directory reported once)', async () => {
    await expectGated(
      {
        'transcripts/x.md': 'long transcript\n',
        'transcripts/deep/y.md': 'more\n',
        'media/cat.png': 'png',
        'a.tmp': 'scratch\n',
        'notes/b.tmp': 'scratch\n',
      },
      [
        ['a.tmp', 'ignored'],
        ['media/', 'ignored'],
        ['notes/b.tmp', 'ignored'],
        ['transcripts/', 'ignored'],
      ],
    );
  });

  it('keeps the default ignore lines even when .gitignore loses them, and honours lines people add', async () => {
    writeFileSync(join(into, '.gitignore'), 'drafts/\n');
    await expectGated(
      { 'drafts/d.md': 'draft\n', 'transcripts/x.md': 't\n' },
      [
        ['drafts/', 'ignored'],
        ['transcripts/', 'ignored'],
      ],
      [{ path: '.gitignore', status: 'modified' }],
    );
    expect(readFileSync(join(into, '.gitignore'), 'utf8')).toBe('drafts/\ntranscripts/\nmedia/\n*.tmp\n');
  });

  it('skips symlinks (to files and to directories) with a warning, never following them', async () => {
    const outside = join(scratch, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.md'), 'outside the mount\n');
    symlinkSync(join(outside, 'secret.md'), join(into, 'link.md'));
    symlinkSync(outside, join(into, 'linked-dir'));
    await expectGated({}, [
      ['link.md', 'symlink'],
      ['linked-dir', 'symlink'],
    ]);
  });

  it('a commit of gated files only is nothing_to_commit, still reporting them', async () => {
    const base = tip();
    write('.env', 'TOKEN=1\n');
    write('transcripts/t.md', 't\n');
    const outcome = await commitMountedTree({ into });
    expect(outcome).toMatchObject({
      status: 'nothing_to_commit',
      commit: base,
      skipped: [
        { path: '.env', reason: 'secret' },
        { path: 'transcripts/', reason: 'ignored' },
      ],
    });
    expect(tip()).toBe(base);
  });

  it('a committed file that grows over the limit is skipped, neither updated nor deleted on the branch', async () => {
    write('big.md', 'small at first\n');
    expect((await commitMountedTree({ into })).status).toBe('committed');
    write('big.md', Buffer.alloc(MAX_COMMIT_FILE_BYTES + 10, 0x62));
    const outcome = await commitMountedTree({ into });
    expect(outcome).toMatchObject({ status: 'nothing_to_commit', skipped: [{ path: 'big.md', reason: 'too_large' }] });
    expect(git(dir, ['show', `${BRANCH}:big.md`])).toBe('small at first');
  });
});

describe('gate rules', () => {
  it('documents a secret list that matches the usual names and leaves ordinary notes alone', () => {
    expect(SECRET_FILE_PATTERNS).toContain('.env');
    for (const name of [
      '.env',
      '.env.production',
      'prod.env',
      'x/id_rsa',
      'id_ecdsa.pub',
      'a.PEM',
      'credentials.json',
      '.git-credentials',
      '.envrc',
      '.env/production',
      'deploy/.docker/config.json',
      'kubeconfig',
      'home/.kube/config',
      'terraform.tfstate',
      'infra/terraform.tfstate.backup',
    ]) {
      expect(secretPattern(name), name).toBeDefined();
    }
    for (const name of ['MEMORY.md', 'environment.md', 'keys.md', 'notes/id.md', 'github/o/r/issue-1.json']) {
      expect(secretPattern(name), name).toBeUndefined();
    }
  });

  it('parses a gitignore subset: directories, anchored paths, globs, comments; negations are skipped', () => {
    const rules = new IgnoreRules('# comment\n/build\ncache/\nlogs/*.log\n!keep.tmp\n**/scratch\n');
    expect(rules.ignoredAncestor('transcripts/a/b.md')).toBe('transcripts/');
    expect(rules.ignoredAncestor('x/media/a.png')).toBe('x/media/');
    expect(rules.ignoredAncestor('keep.tmp')).toBe('keep.tmp');
    expect(rules.ignoredAncestor('build')).toBe('build');
    expect(rules.ignoredAncestor('sub/build')).toBeUndefined();
    expect(rules.ignoredAncestor('a/cache/x')).toBe('a/cache/');
    expect(rules.ignoredAncestor('cache')).toBeUndefined();
    expect(rules.ignoredAncestor('logs/a.log')).toBe('logs/a.log');
    expect(rules.ignoredAncestor('logs/deep/a.log')).toBeUndefined();
    expect(rules.ignoredAncestor('deep/down/scratch')).toBe('deep/down/scratch');
    expect(rules.ignoredAncestor('scratch')).toBe('scratch');
    expect(rules.ignoredAncestor('MEMORY.md')).toBeUndefined();
  });
});
