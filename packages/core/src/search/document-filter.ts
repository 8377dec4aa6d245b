// Why: the skip rules of Sepo's search in one place (oversized, binary, VCS and dependency
// directories), plus repomem's own seeded scaffolding (a file starting with the scaffold marker),
// applied before any document is analysed, so every search path agrees on which documents are
// searchable.

/** Documents larger than this (512 KiB) are not searched. */
export const MAX_SEARCH_DOCUMENT_BYTES = 512 * 1024;

/** How many leading bytes are inspected for binary content (NUL byte or invalid UTF-8). */
export const BINARY_SNIFF_BYTES = 8 * 1024;

const SKIPPED_SEGMENTS: ReadonlySet<string> = new Set(['.git', '.hg', '.svn', 'node_modules']);

/**
 * Top-level directory of repomem's own documents (verified-memory records and their telemetry,
 * which carry a repository each and have their own query API). Never searched as documents, so a
 * document search can never return another repository's or an invalidated memory.
 */
export const RESERVED_DOCUMENT_PREFIX = '.repomem/';

/**
 * The opening of a file repomem seeded as scaffolding (the memory tree's `README.md`). A document
 * whose text starts with it is not searched, so the layout notes never compete with memory;
 * deleting that first line makes the file an ordinary, searchable document.
 */
export const SCAFFOLD_MARKER = '<!-- repomem:scaffold';

/** Why a document is not searched. */
export type SkipReason = 'too-large' | 'binary' | 'scaffold';

/** A document's searchable text, or why it was skipped. */
export type DecodedDocument =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'skipped'; readonly reason: SkipReason };

/**
 * False for paths inside `.git`, `.hg`, `.svn` or `node_modules` (stores usually skip these
 * already) and for repomem's own documents under {@link RESERVED_DOCUMENT_PREFIX}.
 */
export function isSearchablePath(path: string): boolean {
  if (path.startsWith(RESERVED_DOCUMENT_PREFIX)) return false;
  for (const segment of path.split('/')) {
    if (SKIPPED_SEGMENTS.has(segment)) return false;
  }
  return true;
}

/** True when a document of `bytes` bytes is too large to search. */
export function isOversized(bytes: number): boolean {
  return bytes > MAX_SEARCH_DOCUMENT_BYTES;
}

/**
 * Decode stored bytes for search: skipped when larger than {@link MAX_SEARCH_DOCUMENT_BYTES},
 * binary (a NUL byte or invalid UTF-8 in the first {@link BINARY_SNIFF_BYTES}), or seeded
 * scaffolding (starts with {@link SCAFFOLD_MARKER}); otherwise UTF-8 text without a byte-order
 * mark (later invalid sequences become U+FFFD).
 */
export function decodeSearchableBytes(content: Uint8Array): DecodedDocument {
  if (isOversized(content.byteLength)) return { kind: 'skipped', reason: 'too-large' };
  const head = content.subarray(0, BINARY_SNIFF_BYTES);
  if (head.includes(0)) return { kind: 'skipped', reason: 'binary' };
  try {
    // Streaming keeps a multi-byte character cut by the sniff window from counting as invalid.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: head.byteLength < content.byteLength });
  } catch {
    return { kind: 'skipped', reason: 'binary' };
  }
  return searchableText(new TextDecoder('utf-8').decode(content));
}

function searchableText(text: string): DecodedDocument {
  return text.startsWith(SCAFFOLD_MARKER) ? { kind: 'skipped', reason: 'scaffold' } : { kind: 'text', text };
}

/** Apply the same rules to a document given as text (size counted in UTF-8 bytes). */
export function decodeSearchableText(text: string): DecodedDocument {
  if (isOversized(Buffer.byteLength(text, 'utf8'))) return { kind: 'skipped', reason: 'too-large' };
  if (text.slice(0, BINARY_SNIFF_BYTES).includes('\0')) return { kind: 'skipped', reason: 'binary' };
  return searchableText(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}
