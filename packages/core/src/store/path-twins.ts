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
  const out: string[] = [];
  let current = '';
  for (const segment of segments) {
    current = current === '' ? segment : `${current}/${segment}`;
    out.push(current);
  }
  return out;
}

/**
 * Every document and directory of a set of paths, grouped by fold key, so a twin is found with
 * one lookup per segment of the path written (building it is linear in the paths; checking a
 * batch no longer compares every written path with every stored one).
 */
class PathFoldIndex {
  /** fold key -> (exact prefix -> how it is shown: `dir/` for a directory), in insertion order. */
  readonly #byKey = new Map<string, Map<string, string>>();

  add(path: string): void {
    const all = prefixes(path);
    all.forEach((prefix, index) => {
      const key = pathFoldKey(prefix);
      let names = this.#byKey.get(key);
      if (names === undefined) {
        names = new Map();
        this.#byKey.set(key, names);
      }
      if (!names.has(prefix)) names.set(prefix, index === all.length - 1 ? prefix : `${prefix}/`);
    });
  }

  twinOf(path: string): string | undefined {
    for (const prefix of prefixes(path)) {
      const names = this.#byKey.get(pathFoldKey(prefix));
      if (names === undefined || names.has(prefix)) continue;
      for (const shown of names.values()) return shown;
    }
    return undefined;
  }
}

/**
 * The existing document or directory (`dir/`) that `path` would collide with on a case-insensitive
 * or normalising file system, given every existing document path, or `undefined`. A path that
 * already exists exactly is never a twin (writing it again is an update).
 */
export function findPathTwin(path: string, existingPaths: Iterable<string>): string | undefined {
  const index = new PathFoldIndex();
  for (const existing of existingPaths) index.add(existing);
  return index.twinOf(path);
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
  const existing = new PathFoldIndex();
  for (const path of existingPaths) if (!deleted.has(path)) existing.add(path);
  const accepted = new PathFoldIndex();
  for (const path of puts) {
    const twin = existing.twinOf(path) ?? accepted.twinOf(path);
    if (twin !== undefined) throw pathTwinError(path, twin);
    accepted.add(path);
  }
}
