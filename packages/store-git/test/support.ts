// Why: helpers shared by the git store tests: throwaway repositories made by the real git CLI
// (with a fixed identity and no global or system config), raw reads through `git show`, what the
// user's checkout looks like, the RepomemError assertion, and the built package that child
// processes import.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isRepomemError } from '@repomem/core';
import { expect } from 'vitest';
import type { GitStore } from '../src/index.js';

/** packages/store-git */
export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Environment for git CLI calls: fixed identity and dates, no user or system configuration. */
export const gitEnv: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Test Human',
  GIT_AUTHOR_EMAIL: 'human@example.com',
  GIT_COMMITTER_NAME: 'Test Human',
  GIT_COMMITTER_EMAIL: 'human@example.com',
  GIT_TERMINAL_PROMPT: '0',
};

/** Run git in `cwd` and return stdout as bytes; throws with stderr on a non-zero exit. */
export function gitBytes(
  cwd: string,
  args: readonly string[],
  options: { input?: string | Uint8Array; env?: NodeJS.ProcessEnv } = {},
): Buffer {
  return execFileSync('git', args, {
    cwd,
    env: { ...gitEnv, ...options.env },
    input: options.input,
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Run git in `cwd` and return trimmed stdout text. */
export function git(
  cwd: string,
  args: readonly string[],
  options: { input?: string | Uint8Array; env?: NodeJS.ProcessEnv } = {},
): string {
  return gitBytes(cwd, args, options).toString('utf8').trim();
}

/** Run git asynchronously; resolves `{ code, stdout, stderr }` without throwing. */
export function gitAsync(
  cwd: string,
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile('git', args, { cwd, env: gitEnv, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** A fresh empty temp directory. */
export function freshDirectory(prefix = 'repomem-git-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Remove a temp directory. */
export function removeDirectory(path: string): Promise<void> {
  return rm(path, { recursive: true, force: true });
}

/** A new repository made by `git init` (worktree with `.git`, or bare). */
export async function freshRepository(options: { bare?: boolean } = {}): Promise<string> {
  const dir = await freshDirectory();
  git(dir, ['init', '-q', '-b', 'main', ...(options.bare ? ['--bare'] : [])]);
  return dir;
}

/** Bytes of `branch:path` as the git CLI shows them (`git show`), or undefined when absent. */
export function showBlob(dir: string, branch: string, path: string): Uint8Array | undefined {
  try {
    return new Uint8Array(gitBytes(dir, ['show', `${branch}:${path}`]));
  } catch {
    return undefined;
  }
}

/** Every file path in the branch's tree according to `git ls-tree` (empty when the branch is missing). */
export function lsTree(dir: string, branch: string): string[] {
  try {
    git(dir, ['rev-parse', '--verify', '-q', `refs/heads/${branch}`]);
  } catch {
    return [];
  }
  return gitBytes(dir, ['ls-tree', '-r', '-z', '--name-only', `refs/heads/${branch}`])
    .toString('utf8')
    .split('\0')
    .filter(Boolean);
}

/** What the user of worktree `repo` sees: HEAD, `git status --porcelain` and the index bytes (base64). */
export function userState(repo: string): { head: string; status: string; index: string } {
  return {
    head: git(repo, ['rev-parse', 'HEAD']),
    status: git(repo, ['status', '--porcelain']),
    index: readFileSync(join(repo, '.git', 'index')).toString('base64'),
  };
}

/**
 * Assert `action` rejects with a RepomemError of `code` whose message matches `message` (when
 * given); resolves that error.
 */
export async function expectCode(action: () => Promise<unknown>, code: string, message?: RegExp): Promise<unknown> {
  let caught: unknown;
  try {
    await action();
  } catch (error) {
    caught = error;
  }
  expect(isRepomemError(caught), `expected RepomemError ${code}, got ${String(caught)}`).toBe(true);
  expect((caught as { code: string }).code).toBe(code);
  if (message) expect((caught as Error).message).toMatch(message);
  return caught;
}

/** Assert `git fsck --strict` reports no problem (dangling objects are fine). */
export function fsckStrict(dir: string): string {
  const output = execFileSync('git', ['fsck', '--strict', '--no-progress', '--no-dangling'], {
    cwd: dir,
    env: gitEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return output.toString('utf8');
}

/** The raw-read callbacks the conformance suite uses, through the git CLI. */
export function rawAccess(): {
  rawRead: (store: GitStore, path: string) => Promise<Uint8Array | undefined>;
  rawList: (store: GitStore) => Promise<string[]>;
} {
  return {
    rawRead: async (store, path) => showBlob(store.dir, store.branch, path),
    rawList: async (store) => lsTree(store.dir, store.branch),
  };
}

const utf8Encoder = new TextEncoder();
/** UTF-8 encode. */
export const utf8 = (text: string): Uint8Array => utf8Encoder.encode(text);
const utf8Decoder = new TextDecoder();
/** UTF-8 decode. */
export const text = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : utf8Decoder.decode(bytes);

/**
 * URL of the built `@repomem/store-git` (dist/index.js) for child processes; builds it when
 * missing or older than the sources (normally the test pipeline builds first).
 */
export function builtStoreGitUrl(): string {
  const entry = join(packageRoot, 'dist/index.js');
  const newestSource = Math.max(
    ...execFileSync('git', ['ls-files', '--others', '--cached', 'src'], { cwd: packageRoot, env: gitEnv })
      .toString('utf8')
      .split('\n')
      .filter((file) => file !== '' && existsSync(join(packageRoot, file)))
      .map((file) => statSync(join(packageRoot, file)).mtimeMs),
  );
  const fresh =
    existsSync(entry) &&
    statSync(entry).mtimeMs >= newestSource &&
    readFileSync(entry, 'utf8').includes('openGitStore');
  if (!fresh) {
    const tsup = resolve(packageRoot, '../../node_modules/.bin/tsup');
    execFileSync(tsup, [], { cwd: packageRoot, stdio: 'ignore' });
  }
  return pathToFileURL(entry).href;
}
