// Why: reading a ref exactly as git does (a loose file under refs/ first, then `packed-refs`
// after `git pack-refs` or `git gc`), so the store sees the branch git sees.
import { join } from 'node:path';
import { RepomemError } from '@repomem/core';
import { isObjectId } from '../objects/object-id.js';
import { type GitFileSystem, readFileIfExists } from '../repository/file-system.js';

const decoder = new TextDecoder();

/** Parse `packed-refs` into a map from ref name to object id (peeled `^` lines skipped). */
export function parsePackedRefs(text: string): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    if (space !== 40) continue;
    const oid = line.slice(0, 40);
    if (isObjectId(oid)) refs.set(line.slice(41).trimEnd(), oid);
  }
  return refs;
}

/** Every packed ref of the repository. */
export async function readPackedRefs(fs: GitFileSystem, commondir: string): Promise<Map<string, string>> {
  const content = await readFileIfExists(fs, join(commondir, 'packed-refs'));
  return content === undefined ? new Map() : parsePackedRefs(decoder.decode(content));
}

/**
 * The object id `ref` (a full name such as `refs/heads/agent/memory`) points at, or `null` when
 * the ref does not exist. Throws `UNSUPPORTED` for a symbolic ref and `INVALID_DOCUMENT` for a
 * corrupt loose ref file.
 */
export async function readRef(fs: GitFileSystem, commondir: string, ref: string): Promise<string | null> {
  const loose = await readFileIfExists(fs, join(commondir, ref));
  if (loose !== undefined) {
    const text = decoder.decode(loose).trim();
    if (isObjectId(text)) return text;
    if (text.startsWith('ref:')) {
      throw new RepomemError('UNSUPPORTED', `${ref} is a symbolic ref (${text}); the git store needs a plain branch`, {
        details: { ref },
      });
    }
    throw new RepomemError('INVALID_DOCUMENT', `ref file ${ref} is corrupt: ${JSON.stringify(text.slice(0, 80))}`, {
      details: { ref },
    });
  }
  return (await readPackedRefs(fs, commondir)).get(ref) ?? null;
}
