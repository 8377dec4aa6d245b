// Why: macOS and Windows file systems compare names case-insensitively and (macOS) after Unicode
// normalisation, so `MEMORY.md` and `memory.md`, or `café.md` in NFC and in NFD, are one file
// there. A store holding both as distinct documents corrupts every checkout on those systems (one
// overwrites the other). Every store refuses a write that would create such a twin of an existing
// document or directory, naming the existing path; this module holds the one comparison rule.
import { RepomemError } from '../errors.js';

/** Comparison key of one name or path: NFC, lower-cased (the folding those file systems apply). */
export function pathFoldKey(name: string): string {
  return name.normalize('NFC').toLowerCase().normalize('NFC');
}

/** The name among `siblings` that differs from `name` but folds to the same key, or `undefined`. */
export function findNameTwin(name: string, siblings: Iterable<string>): string | undefined {
  const key = pathFoldKey(name);
  for (const sibling of siblings) {
    if (sibling !== name && pathFoldKey(sibling) === key) return sibling;
  }
  return undefined;
}

function prefixes(path: string): string[] {
  const segments = path.split('/');
  return segments.map((_, index) => segments.slice(0, index + 1).join('/'));
}

/**
 * The existing document or directory (`dir/`) that `path` would collide with on a case-insensitive
 * or normalising file system, given every existing document path, or `undefined`. A path that
 * already exists exactly is never a twin (writing it again is an update).
 */
export function findPathTwin(path: string, existingPaths: Iterable<string>): string | undefined {
  const wanted = prefixes(path);
  const wantedKeys = new Map(wanted.map((prefix) => [pathFoldKey(prefix), prefix]));
  const exact = new Set<string>();
  const twins = new Map<string, string>();
  for (const existing of existingPaths) {
    const all = prefixes(existing);
    all.forEach((prefix, index) => {
      const shown = index === all.length - 1 ? prefix : `${prefix}/`;
      const key = pathFoldKey(prefix);
      const want = wantedKeys.get(key);
      if (want === undefined) return;
      if (want === prefix) exact.add(prefix);
      else if (!twins.has(want)) twins.set(want, shown);
    });
  }
  for (const prefix of wanted) {
    if (exact.has(prefix)) continue;
    const twin = twins.get(prefix);
    if (twin !== undefined) return twin;
  }
  return undefined;
}

/** The `INVALID_PATH` error for writing `path` next to its existing `twin`. */
export function pathTwinError(path: string, twin: string): RepomemError {
  return new RepomemError(
    'INVALID_PATH',
    `${JSON.stringify(path)} would collide with the existing ${JSON.stringify(twin)} on case-insensitive or Unicode-normalising file systems (macOS, Windows): use the existing name`,
    { details: { path, existing: twin } },
  );
}

/**
 * Throw {@link pathTwinError} when a put of `puts` would create a twin of an existing path
 * (`existingPaths`, minus those the batch deletes) or of another put of the same batch.
 */
export function assertNoPathTwins(
  puts: readonly string[],
  existingPaths: Iterable<string>,
  deleted: ReadonlySet<string> = new Set(),
): void {
  const existing = [...existingPaths].filter((path) => !deleted.has(path));
  const accepted: string[] = [];
  for (const path of puts) {
    const twin = findPathTwin(path, existing) ?? findPathTwin(path, accepted);
    if (twin !== undefined) throw pathTwinError(path, twin);
    accepted.push(path);
  }
}
