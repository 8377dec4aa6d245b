// Why: the FTS5 index must hold exactly the text core's search engine searches, or the two would
// disagree on what matches: the same skip rules (binary or larger than 512 KiB: stored, not
// indexed) and, for `*.json` mirror files, only the field values (not keys, quotes and escapes),
// flattened with core's own JSON scanner.
import { decodeSearchableBytes, scanJsonLeaves } from '@repomem/core';

/** The text a document contributes to the FTS5 index, or `undefined` when it is not searched. */
export function indexableBody(path: string, content: Uint8Array): string | undefined {
  const decoded = decodeSearchableBytes(content);
  if (decoded.kind !== 'text') return undefined;
  if (path.toLowerCase().endsWith('.json')) {
    const leaves = scanJsonLeaves(decoded.text);
    if (leaves !== undefined) return leaves.map((leaf) => leaf.value).join('\n');
  }
  return decoded.text;
}
