// Why: core's rule against case and Unicode-normalisation twins (see core's path-twins.ts) on the
// directory store. On macOS or Windows writing `memory.md` next to `MEMORY.md` would silently
// overwrite it; on Linux it would create a second document that collides in every checkout on
// those systems. A put is compared, level by level, with the names in the directories on its
// path (one readdir per level, only those directories), before any directory is created.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { assertNoPathTwins, findNameTwin, type PreparedOperation, pathTwinError } from '@repomem/core';

async function namesIn(directory: string): Promise<string[] | undefined> {
  try {
    return await readdir(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

async function twinOnDisk(root: string, path: string, deleted: ReadonlySet<string>): Promise<string | undefined> {
  const segments = path.split('/');
  let base = '';
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index]!;
    const names = await namesIn(join(root, base));
    if (names === undefined) return undefined;
    if (names.includes(segment)) {
      base += `${segment}/`;
      continue;
    }
    const last = index === segments.length - 1;
    const twin = findNameTwin(
      segment,
      names.filter((name) => !(last && deleted.has(`${base}${name}`))),
    );
    if (twin === undefined) return undefined;
    return last ? `${base}${twin}` : `${base}${twin}/`;
  }
  return undefined;
}

/** Throw core's `INVALID_PATH` twin error when a put of `batch` would create a twin under `root`. */
export async function refuseDirectoryTwins(root: string, batch: readonly PreparedOperation[]): Promise<void> {
  const puts = batch.filter((operation) => operation.kind === 'put').map((operation) => operation.path);
  if (puts.length === 0) return;
  const deleted = new Set(batch.filter((operation) => operation.kind === 'delete').map((operation) => operation.path));
  assertNoPathTwins(puts, []);
  for (const path of puts) {
    const twin = await twinOnDisk(root, path, deleted);
    if (twin !== undefined) throw pathTwinError(path, twin);
  }
}
