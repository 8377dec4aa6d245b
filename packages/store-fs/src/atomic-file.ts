// Why: documents and state values are replaced the same crash-safe way: the new bytes go to a
// temp file in the same directory, are fsynced, and are renamed over the old file, so a reader or
// a crash sees the old or the new bytes, never part of them.
import { open, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { tempFileName } from './directory-names.js';

/**
 * Write `content` to a new temp file next to `absolutePath` (with permission bits `mode` when
 * given), fsync it, and return the temp path. Nothing is left behind when it fails.
 */
export async function stageFile(absolutePath: string, content: Uint8Array, mode: number | undefined): Promise<string> {
  const temp = join(dirname(absolutePath), tempFileName(basename(absolutePath)));
  const handle = await open(temp, 'wx', 0o666);
  try {
    await handle.writeFile(content);
    if (mode !== undefined) await handle.chmod(mode);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw error;
  }
  await handle.close();
  return temp;
}

/** Make renames and unlinks in `directory` durable (best effort: not every platform allows it). */
export async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Directory fsync is unsupported on some platforms; the rename itself is still atomic.
  }
}
