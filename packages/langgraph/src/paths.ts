// Why: a LangGraph namespace and key name a repomem document, and the mapping must work the
// other way too (listing a store tells which items exist). Labels and keys may hold anything
// (`/`, `..`, spaces, upper case, any Unicode), while a document path segment must be valid on
// every store and on case-insensitive, normalising file systems. Each segment is escaped into a
// name that is its own case and NFC fold, is never a name git or repomem reserves, and decodes
// back to exactly the string it came from.
import { isDocumentPathSegment, MAX_PATH_SEGMENT_BYTES, pathFoldKey, RepomemError } from '@repomem/core';

/** Folder of the store under which items are kept when none is given. */
export const DEFAULT_ITEMS_FOLDER = 'langgraph';

/** Suffix of an item's document (its value is a JSON document). */
export const ITEM_SUFFIX = '.json';

/** The segment that stands for the empty string. */
const EMPTY = '~';
const KEPT_ASCII = /^[a-z0-9_-]$/;
/** Code points never kept raw: controls, format characters (zero-width...), separators, marks, surrogates. */
const ALWAYS_ESCAPED = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Z}\p{M}]/u;

function escapeUnit(code: number): string {
  return code < 0x100 ? `~${code.toString(16).padStart(2, '0')}` : `~u${code.toString(16).padStart(4, '0')}`;
}

/** Escape every UTF-16 unit not kept; `keepUnicode` keeps other non-ASCII code points raw. */
function escapeWith(text: string, keepUnicode: boolean, escapeFirst: boolean): string {
  let out = '';
  let index = 0;
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    const kept =
      !(escapeFirst && index === 0) &&
      (code < 0x80 ? KEPT_ASCII.test(character) : keepUnicode && !ALWAYS_ESCAPED.test(character));
    if (kept) out += character;
    else for (let unit = 0; unit < character.length; unit += 1) out += escapeUnit(character.charCodeAt(unit));
    index += 1;
  }
  return out;
}

/** True when `segment` is a fixed point of the case/NFC fold and a valid path segment. */
function isSafeSegment(segment: string): boolean {
  return pathFoldKey(segment) === segment && isDocumentPathSegment(segment) && segment.toLowerCase() !== 'node_modules';
}

/**
 * Encode one namespace label or key as a path segment: `[a-z0-9_-]` stay, other ASCII (upper case
 * letters, `.`, `/`, `~`, space...) become `~hh`, other code points stay when the whole segment is
 * then its own case and NFC fold (else they become `~uhhhh` per UTF-16 unit); the empty string is
 * `~`. Reversed by {@link decodeSegment}.
 */
export function encodeSegment(text: string): string {
  if (text === '') return EMPTY;
  for (const keepUnicode of [true, false]) {
    for (const escapeFirst of [false, true]) {
      const segment = escapeWith(text, keepUnicode, escapeFirst);
      if (isSafeSegment(segment)) return segment;
    }
  }
  // Unreachable: fully escaped text is ASCII `[a-z0-9_~-]` starting with `~`.
  throw new RepomemError('INVALID_ARGUMENT', `cannot map ${JSON.stringify(text)} to a path segment`);
}

/** The label or key a segment written by {@link encodeSegment} stands for, or `undefined` for any other name. */
export function decodeSegment(segment: string): string | undefined {
  if (segment === EMPTY) return '';
  let out = '';
  let index = 0;
  while (index < segment.length) {
    const character = segment[index] ?? '';
    if (character !== '~') {
      out += character;
      index += 1;
      continue;
    }
    const long = /^~u([0-9a-f]{4})/.exec(segment.slice(index));
    const short = long === null ? /^~([0-9a-f]{2})/.exec(segment.slice(index)) : null;
    const match = long ?? short;
    if (match === null) return undefined;
    out += String.fromCharCode(Number.parseInt(match[1] ?? '', 16));
    index += match[0].length;
  }
  return encodeSegment(out) === segment ? out : undefined;
}

const encoder = new TextEncoder();

function checkLength(segment: string, what: string, text: string): void {
  if (encoder.encode(segment).byteLength > MAX_PATH_SEGMENT_BYTES) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${what} ${JSON.stringify(text.slice(0, 40))} is too long once escaped (${encoder.encode(segment).byteLength} bytes, at most ${MAX_PATH_SEGMENT_BYTES})`,
      { details: { [what]: text } },
    );
  }
}

/** The folder of a namespace (`langgraph/users/u1/`), or of the whole store for `[]`. */
export function namespaceFolder(folder: string, namespace: readonly string[]): string {
  const segments = namespace.map((label) => {
    const segment = encodeSegment(label);
    checkLength(segment, 'namespace label', label);
    return segment;
  });
  return [folder, ...segments].map((segment) => `${segment}/`).join('');
}

/** The document path of an item: its namespace's folder, then the escaped key and `.json`. */
export function itemPath(folder: string, namespace: readonly string[], key: string): string {
  const segment = `${encodeSegment(key)}${ITEM_SUFFIX}`;
  checkLength(segment, 'key', key);
  return `${namespaceFolder(folder, namespace)}${segment}`;
}

/** Namespace and key of a document path under `folder`, or `undefined` for a path no item has. */
export function parseItemPath(
  folder: string,
  path: string,
): { readonly namespace: string[]; readonly key: string } | undefined {
  if (!path.startsWith(`${folder}/`) || !path.endsWith(ITEM_SUFFIX)) return undefined;
  const segments = path.slice(folder.length + 1, -ITEM_SUFFIX.length).split('/');
  if (segments.length < 2) return undefined;
  const decoded = segments.map(decodeSegment);
  if (decoded.some((part) => part === undefined)) return undefined;
  const parts = decoded as string[];
  return { namespace: parts.slice(0, -1), key: parts[parts.length - 1] ?? '' };
}
