// Why: task-record ids and repository names hold characters a document path cannot carry
// safely everywhere (`/`, `:`, `@`, and upper case, which a case-insensitive file system folds),
// so each becomes one path segment by a reversible, prefix-preserving escape; a rare id whose
// escape would be too long for a file name is named by its hash instead.
import { createHash } from 'node:crypto';
import { isDocumentPathSegment } from '../store/paths.js';
import type { TaskRecordKind } from './record-backend.js';

/** Longest escaped segment kept readable; longer ones are named by hash (file systems allow 255 bytes). */
const MAX_READABLE_SEGMENT = 200;

/**
 * Escape `text` into a path segment: `a-z`, `0-9`, `.`, `_` and `-` stay; every other character
 * becomes `~` and its two-digit lowercase hex code (`Acme` → `~41cme`, `pr-42/x` → `pr-42~2fx`).
 * Ids and slugs are ASCII, so two hex digits always suffice.
 */
export function escapeRecordSegment(text: string): string {
  let out = '';
  for (const character of text) {
    out += /^[a-z0-9._-]$/.test(character)
      ? character
      : `~${(character.codePointAt(0) ?? 0).toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** `text` escaped, plus `suffix`; `~~<sha256 of text>` plus `suffix` when too long or reserved. */
function segment(text: string, suffix: string): string {
  const escaped = escapeRecordSegment(text);
  const name = `${escaped}${suffix}`;
  if (escaped.length <= MAX_READABLE_SEGMENT && isDocumentPathSegment(name)) return name;
  return `~~${createHash('sha256').update(text, 'utf8').digest('hex')}${suffix}`;
}

/** File name of a record: its escaped id plus `.json` (hashed when too long for a file name). */
export function recordFileName(id: string): string {
  return segment(id, '.json');
}

/** Directory (no trailing `/`) of one repository's records of one kind under `prefix`. */
export function recordDirectory(prefix: string, kind: TaskRecordKind, repo: string): string {
  const [owner = '', name = ''] = repo.split('/');
  return `${prefix}/${kind}/${segment(owner, '')}/${segment(name, '')}`;
}
