// Why: helpers shared by the directory store tests: fresh temp directories and trees, a raw view
// of what is on disk (bypassing the store), the RepomemError assertion, and the built package
// that child processes import.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isRepomemError, type RepomemErrorCode } from '@repomem/core';
import { expect } from 'vitest';

/** packages/store-fs */
export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** A fresh empty temp directory. */
export function freshDirectory(prefix = 'repomem-store-fs-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Remove a temp directory. */
export function removeDirectory(path: string): Promise<void> {
  return rm(path, { recursive: true, force: true });
}

/** Write (or overwrite) `files` under `root`, creating directories. */
export async function writeTree(root: string, files: Readonly<Record<string, string | Uint8Array>>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}

/** A fresh temp directory holding `files`. */
export async function makeTree(files: Readonly<Record<string, string | Uint8Array>> = {}): Promise<string> {
  const root = await freshDirectory('repomem-tree-');
  await writeTree(root, files);
  return root;
}

/** Bytes of `root/path` as stored on disk, or undefined. */
export async function readRaw(root: string, path: string): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(await readFile(join(root, path)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Every regular file under `root` (nothing skipped: temp and lock leftovers included), relative. */
export async function listRaw(root: string): Promise<string[]> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

/**
 * Assert `action` throws or rejects with a RepomemError of `code` whose message matches
 * `message` (when given); resolves that error.
 */
export async function expectRepomemError(
  action: () => unknown,
  code: RepomemErrorCode,
  message?: RegExp,
): Promise<Error> {
  let caught: unknown;
  try {
    await action();
  } catch (error) {
    caught = error;
  }
  expect(isRepomemError(caught, code), `expected ${code}, got ${String(caught)}`).toBe(true);
  if (message) expect((caught as Error).message).toMatch(message);
  return caught as Error;
}

/**
 * URL of the built `@repomem/store-fs` (dist/index.js) for child processes. Builds the package
 * when dist is missing or predates the state API (normally the test pipeline builds first).
 */
export function builtPackageUrl(): string {
  const entry = join(packageRoot, 'dist/index.js');
  const fresh = existsSync(entry) && readFileSync(entry, 'utf8').includes('createDirectoryState');
  if (!fresh) {
    const tsup = resolve(packageRoot, '../../node_modules/.bin/tsup');
    execFileSync(tsup, [], { cwd: packageRoot, stdio: 'ignore' });
  }
  return pathToFileURL(entry).href;
}
