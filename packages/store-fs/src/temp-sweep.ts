// Why: a writer killed with SIGKILL leaves its staged temp file (`.<name>.<pid>.<hex>.repomem-tmp`)
// or a lock moved aside (`<name>.lock.<hex>.repomem-tmp`) behind, and nothing else ever removes
// them. While this process holds the lock of a document, no other writer can be staging that
// document, so every temp file of that document is a leftover and is removed.
import { readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { LOCK_FILE_SUFFIX, TEMP_FILE_SUFFIX } from './directory-names.js';

/** True when `name` is a temp file of the document named `base` (staged content or a lock moved aside). */
export function isTempFileOf(name: string, base: string): boolean {
  if (!name.endsWith(TEMP_FILE_SUFFIX)) return false;
  return name.startsWith(`.${base}.`) || name.startsWith(`${base}${LOCK_FILE_SUFFIX}.`);
}

/**
 * Remove the leftover temp files of the document at `absolutePath`. Call only while holding its
 * lock. Best effort: a file that cannot be listed or removed is left for a later write.
 */
export async function sweepTempFiles(absolutePath: string): Promise<void> {
  const base = basename(absolutePath);
  let names: string[];
  try {
    names = await readdir(dirname(absolutePath));
  } catch {
    return;
  }
  await Promise.all(
    names
      .filter((name) => isTempFileOf(name, base))
      .map((name) => unlink(join(dirname(absolutePath), name)).catch(() => undefined)),
  );
}
