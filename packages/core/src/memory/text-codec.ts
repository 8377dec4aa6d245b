// Why: memory documents are bytes in a store but text to the bullet operations; this is the one
// place that decides a document is editable text and refuses anything else with BINARY_FILE, so a
// binary file is never rewritten. A memory file is binary when its bytes are not valid UTF-8. A
// NUL or other control character inside valid UTF-8 text does not make it binary: bullet
// operations never write one (they refuse it), and a file that got one some other way must stay
// editable, so the bullet holding it can be removed.
import { RepomemError } from '../errors.js';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * Decode a document's bytes as UTF-8 text, keeping a byte order mark if present (so a rewrite
 * preserves it). Throws `BINARY_FILE` when the bytes are not valid UTF-8 (NUL bytes in valid UTF-8
 * are text: see the module comment).
 */
export function decodeMemoryText(content: Uint8Array, path: string): string {
  try {
    return decoder.decode(content);
  } catch (cause) {
    throw new RepomemError('BINARY_FILE', `${path} is not valid UTF-8 text; refusing to edit it`, {
      cause,
      details: { path },
    });
  }
}

/** Encode text as UTF-8 bytes for a store write. */
export function encodeMemoryText(text: string): Uint8Array {
  return encoder.encode(text);
}
