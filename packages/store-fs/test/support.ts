// Why: helpers shared by the store tests: fresh temp directories, a raw view of what is on disk
// (bypassing the store), and the built package that child processes import.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** packages/core */
export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A fresh empty temp directory. */
export function freshDirectory(prefix = 'repomem-store-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Remove a temp directory. */
export function removeDirectory(path: string): Promise<void> {
  return rm(path, { recursive: true, force: true });
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
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .sort();
}

/**
 * URL of the built `@repomem/core` (dist/index.js) for child processes. Builds the package when
 * dist is missing or predates the directory store (normally the test pipeline builds first).
 */
export function builtCoreUrl(): string {
  const entry = join(packageRoot, 'dist/index.js');
  const fresh = existsSync(entry) && readFileSync(entry, 'utf8').includes('openDirectoryStore');
  if (!fresh) {
    const tsup = resolve(packageRoot, '../../node_modules/.bin/tsup');
    execFileSync(tsup, [], { cwd: packageRoot, stdio: 'ignore' });
  }
  return pathToFileURL(entry).href;
}
