// Why: every path that enters repomem (CLI argument, API call, store listing) is checked here
// once, so traversal (`..`), absolute paths, NUL bytes and VCS internals can never reach a
// backend. Paths are normalised to POSIX form relative to the memory root.
import { RepomemError } from '../errors.js';

const FORBIDDEN_SEGMENTS = new Set(['.git', '.hg', '.svn', 'node_modules']);

/**
 * Validate and normalise a document path (`./a//b.md` -> `a/b.md`).
 * Throws `INVALID_PATH` for empty, absolute, backslash, NUL, `..`, or VCS-internal paths.
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
    if (FORBIDDEN_SEGMENTS.has(segment)) {
      throw new RepomemError('INVALID_PATH', `path enters a reserved directory (${segment}): ${input}`, {
        details: { path: input },
      });
    }
    segments.push(segment);
  }
  if (segments.length === 0) {
    throw new RepomemError('INVALID_PATH', `path names no file: ${input}`, { details: { path: input } });
  }
  return segments.join('/');
}

/** Normalise a listing prefix: `''`/undefined means everything; otherwise a directory prefix ending in `/` or a path prefix. */
export function normalizePrefix(prefix: string | undefined): string {
  if (prefix === undefined || prefix === '' || prefix === '.' || prefix === './') return '';
  const trailingSlash = prefix.endsWith('/');
  const normalized = normalizeDocumentPath(prefix);
  return trailingSlash ? `${normalized}/` : normalized;
}
