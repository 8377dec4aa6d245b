// Why: a state key becomes a file path under the state directory, `<key>.json`, readable by a
// person. Keys nest (`sync/a` and `sync/a/deep` coexist: the file `sync/a.json` beside the
// directory `sync/a/`), and the one key shape that could make a directory and a file share a name
// (`a` and `a.json/x`) is escaped, so every key has its own file and listing can map it back.
import { stateKeyProblem } from '@repomem/core';

/** Suffix of every state file. */
export const STATE_FILE_SUFFIX = '.json';

/**
 * Appended to a directory segment that ends in `.json`, so it never shares a name with a state
 * file. `~` is not allowed in keys, so an escaped segment is never a key's own segment.
 */
const DIRECTORY_ESCAPE = '~';

function directorySegment(segment: string): string {
  return segment.endsWith(STATE_FILE_SUFFIX) ? `${segment}${DIRECTORY_ESCAPE}` : segment;
}

/**
 * Relative POSIX path of the file holding `key` (already checked with `normalizeStateKey`):
 * `sync/acme/app` -> `sync/acme/app.json`; a directory segment ending in `.json` gets a `~`.
 */
export function stateFilePath(key: string): string {
  const segments = key.split('/');
  const last = segments.pop() as string;
  return [...segments.map(directorySegment), `${last}${STATE_FILE_SUFFIX}`].join('/');
}

/**
 * The key a relative file path under the state directory holds, or `undefined` for any file the
 * store did not name (lock and temp files, foreign files, names no key maps to).
 */
export function stateKeyOf(relativePath: string): string | undefined {
  if (!relativePath.endsWith(STATE_FILE_SUFFIX)) return undefined;
  const segments = relativePath.split('/');
  const file = segments.pop() as string;
  const directories = segments.map((segment) =>
    segment.endsWith(`${STATE_FILE_SUFFIX}${DIRECTORY_ESCAPE}`) ? segment.slice(0, -DIRECTORY_ESCAPE.length) : segment,
  );
  const key = [...directories, file.slice(0, -STATE_FILE_SUFFIX.length)].join('/');
  if (stateKeyProblem(key) !== undefined) return undefined;
  return stateFilePath(key) === relativePath ? key : undefined;
}
