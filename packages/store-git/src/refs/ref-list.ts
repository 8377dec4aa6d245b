// Why: state values are listed by walking the refs under one prefix, as git sees them: loose ref
// files (recursively) and `packed-refs`, a loose ref winning over its packed copy. Lock files and
// anything that is not a ref are skipped.
import { join } from 'node:path';
import { isObjectId } from '../objects/object-id.js';
import { errnoCode, type GitFileSystem, readFileIfExists } from '../repository/file-system.js';
import { readPackedRefs } from './ref-store.js';

const decoder = new TextDecoder();

async function walkLoose(
  fs: GitFileSystem,
  commondir: string,
  prefix: string,
  out: Map<string, string>,
): Promise<void> {
  let names: string[];
  try {
    names = await fs.promises.readdir(join(commondir, prefix));
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return;
    throw error;
  }
  for (const name of names) {
    if (name.endsWith('.lock')) continue;
    const ref = `${prefix}${name}`;
    const stats = await fs.promises.stat(join(commondir, ref)).catch(() => undefined);
    if (stats?.isDirectory()) {
      await walkLoose(fs, commondir, `${ref}/`, out);
    } else if (stats?.isFile()) {
      const text = decoder.decode((await readFileIfExists(fs, join(commondir, ref))) ?? new Uint8Array()).trim();
      if (isObjectId(text)) out.set(ref, text);
    }
  }
}

/**
 * Every ref whose full name starts with `prefix` (which ends with `/`, e.g.
 * `refs/agent-memory-state/`), with the id it points at, sorted by name. Symbolic and corrupt
 * loose refs are left out.
 */
export async function listRefs(fs: GitFileSystem, commondir: string, prefix: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const [ref, oid] of await readPackedRefs(fs, commondir)) if (ref.startsWith(prefix)) found.set(ref, oid);
  await walkLoose(fs, commondir, prefix, found);
  return new Map([...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
