// Why: every path that enters repomem (CLI argument, API call, store listing) is checked here
// once, so traversal (`..`), absolute paths, NUL bytes and VCS internals can never reach a
// backend. Paths are normalised to POSIX form relative to the memory root. Since documents move
// between stores, every store refuses what git refuses in a tree (see git-reserved-names.ts).
import { RepomemError } from '../errors.js';
import { gitReservedName } from './git-reserved-names.js';

/** Other reserved directories, compared case-insensitively (case-insensitive file systems). */
const FORBIDDEN_SEGMENTS = new Set(['.hg', '.svn', 'node_modules']);

function reservedName(segment: string): string | undefined {
  const git = gitReservedName(segment);
  if (git !== undefined) return git;
  const lower = segment.toLowerCase();
  return FORBIDDEN_SEGMENTS.has(lower) ? lower : undefined;
}

/**
 * Validate and normalise a document path (`./a//b.md` -> `a/b.md`).
 * Throws `INVALID_PATH` for empty, absolute, backslash, NUL, `..`, or VCS-internal paths, and for
 * every name git refuses in a tree (`.git` in any case or NTFS/HFS spelling, `.gitmodules`,
 * `.gitattributes`; see {@link gitReservedName}).
 */
export function normalizeDocumentPath(input: string): string {
  if (typeof input !== 'string' || input.length === 0) {
    throw new RepomemError('INVALID_PATH', 'path is empty', { details: { path: input } });
  }
  if (input.includes('\0')) {
    throw new RepomemError('INVALID_PATH', `path contains a NUL byte: ${JSON.stringify(input)}`, {
      details: { path: input },
    });
  }
  if (input.includes('\\')) {
    throw new RepomemError('INVALID_PATH', `path must use "/" separators, not "\\": ${input}`, {
      details: { path: input },
    });
  }
  if (input.startsWith('/') || /^[A-Za-z]:/.test(input)) {
    throw new RepomemError('INVALID_PATH', `path must be relative to the memory root: ${input}`, {
      details: { path: input },
    });
  }
  const segments: string[] = [];
  for (const segment of input.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      throw new RepomemError('INVALID_PATH', `path escapes the memory root (".."): ${input}`, {
        details: { path: input },
      });
    }
    const reserved = reservedName(segment);
    if (reserved !== undefined) {
      const as = reserved === segment ? '' : ` (git reads ${JSON.stringify(segment)} as ${reserved})`;
      throw new RepomemError(
        'INVALID_PATH',
        `path uses a name git reserves, ${reserved}${as}: ${JSON.stringify(input)}`,
        {
          details: { path: input, reserved },
        },
      );
    }
    segments.push(segment);
  }
  if (segments.length === 0) {
    throw new RepomemError('INVALID_PATH', `path names no file: ${input}`, { details: { path: input } });
  }
  return segments.join('/');
}

/**
 * True when `name` can be one segment of a document path: not empty, `.` or `..`, no `/`, `\\` or
 * NUL, and no reserved name ({@link normalizeDocumentPath}'s rules). Store listings skip entries
 * failing it, so everything a store lists can be read back by its path.
 */
export function isDocumentPathSegment(name: string): boolean {
  if (name === '' || name === '.' || name === '..') return false;
  if (name.includes('/') || name.includes('\\') || name.includes('\0')) return false;
  return reservedName(name) === undefined;
}

/** Normalise a listing prefix: `''`/undefined means everything; otherwise a directory prefix ending in `/` or a path prefix. */
export function normalizePrefix(prefix: string | undefined): string {
  if (prefix === undefined || prefix === '' || prefix === '.' || prefix === './') return '';
  const trailingSlash = prefix.endsWith('/');
  const normalized = normalizeDocumentPath(prefix);
  return trailingSlash ? `${normalized}/` : normalized;
}
