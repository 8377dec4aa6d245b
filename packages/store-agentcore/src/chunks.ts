// Why: a memory record holds at most 16,000 characters and an event payload item is kept to the
// same size, so anything longer is split here and rejoined exactly. Splitting never cuts a UTF-16
// surrogate pair (the service counts characters, JavaScript counts code units), so every chunk
// is valid text and the joined text equals the original.
import { MAX_RECORD_TEXT_CHARS } from './model-patterns.js';

/**
 * Split `text` into chunks of at most `max` UTF-16 code units (default 16,000), never between
 * the two halves of a surrogate pair. `''` gives no chunks; `chunks.join('')` is `text`.
 */
export function splitText(text: string, max = MAX_RECORD_TEXT_CHARS): string[] {
  if (!Number.isSafeInteger(max) || max < 2) throw new RangeError(`chunk size must be at least 2, got ${max}`);
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + max, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** How a document's bytes are kept as record text. */
export type ContentEncoding = 'utf8' | 'base64';

/**
 * Document bytes as record text: the UTF-8 text itself when the bytes are valid UTF-8 (so the
 * service's retrieval reads real words), otherwise base64. A byte order mark is kept.
 */
export function bytesToText(content: Uint8Array): { readonly encoding: ContentEncoding; readonly text: string } {
  try {
    return { encoding: 'utf8', text: strictDecoder.decode(content) };
  } catch {
    return { encoding: 'base64', text: Buffer.from(content).toString('base64') };
  }
}

/** Invert {@link bytesToText}. */
export function textToBytes(encoding: ContentEncoding, text: string): Uint8Array {
  if (encoding === 'base64') return new Uint8Array(Buffer.from(text, 'base64'));
  return new TextEncoder().encode(text);
}
