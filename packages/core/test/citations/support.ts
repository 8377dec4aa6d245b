// Why: temp working trees for the citation and verified-memory tests (real files on disk).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A fresh temp directory holding `files` (text or bytes). */
export async function makeTree(files: Readonly<Record<string, string | Uint8Array>> = {}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'repomem-citations-'));
  await writeTree(root, files);
  return root;
}

/** Write (or overwrite) `files` under `root`. */
export async function writeTree(root: string, files: Readonly<Record<string, string | Uint8Array>>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const target = join(root, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, content);
  }
}

/** Remove a temp tree. */
export function removeTree(root: string): Promise<void> {
  return rm(root, { recursive: true, force: true });
}

/** `count` numbered lines `line 1` ... `line N`, newline-terminated. */
export function numberedLines(count: number, prefix = 'line'): string {
  return Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}\n`).join('');
}
