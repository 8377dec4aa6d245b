// Why: bullet and section text ends up in Markdown files, in search snippets and on agents'
// terminals, so one rule decides what text a bullet operation accepts: no control characters
// (they would make a file look binary, hide text, or drive a terminal through escape sequences)
// and a bounded size (one bullet must not be able to hide a whole file from search). The text is
// refused, not cleaned: silently stripping would store something other than what was asked.
import { RepomemError } from '../errors.js';

/**
 * Largest bullet accepted, in UTF-8 bytes of its normalised form (`- text`): 4 KiB. A bullet is
 * one durable fact; 4 KiB holds a long paragraph, and 128 bullets at the limit still fit under
 * search's 512 KiB per-document size.
 */
export const MAX_BULLET_BYTES = 4096;

const encoder = new TextEncoder();

/**
 * C0 controls except tab, line feed and carriage return (those are whitespace that bullet
 * normalisation collapses), DEL, and the C1 controls (U+0080 to U+009F, e.g. U+009B, a one-character
 * terminal escape).
 */
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Throw `INVALID_ARGUMENT` naming the first control character of `raw` (argument `what`). */
export function assertNoControlCharacters(raw: string, what: string): void {
  const found = CONTROL_CHARACTER.exec(raw);
  if (found === null) return;
  throw new RepomemError(
    'INVALID_ARGUMENT',
    `${what} contains a control character (${codePoint(found[0])} at character ${found.index + 1}); control characters other than tab and line breaks are not accepted`,
    { details: { [what]: raw, index: found.index } },
  );
}

/** Throw `INVALID_ARGUMENT` when a normalised bullet is over {@link MAX_BULLET_BYTES}. */
export function assertBulletSize(normalized: string, what: string): void {
  if (normalized.length * 3 <= MAX_BULLET_BYTES) return;
  const bytes = encoder.encode(normalized).byteLength;
  if (bytes <= MAX_BULLET_BYTES) return;
  throw new RepomemError(
    'INVALID_ARGUMENT',
    `${what} is too long: ${bytes} bytes, a bullet holds at most ${MAX_BULLET_BYTES} bytes (4 KiB); split it into several bullets or keep the detail in a document`,
    { details: { bytes, maxBulletBytes: MAX_BULLET_BYTES } },
  );
}
