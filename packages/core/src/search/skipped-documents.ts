// Why: a search never drops a document silently: documents too large to search are collected
// by path and size on every search path and reported in the response in one shape.
import type { SkippedDocument } from './types.js';

/** The oversized documents under `prefix`, sorted by path, as a response reports them. */
export function skippedList(skipped: ReadonlyMap<string, number> | undefined, prefix = ''): SkippedDocument[] {
  if (skipped === undefined || skipped.size === 0) return [];
  const list: SkippedDocument[] = [];
  for (const [path, bytes] of skipped) {
    if (prefix === '' || path.startsWith(prefix)) list.push({ path, reason: 'too-large', bytes });
  }
  return list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
