// Why: GitHub allows items far larger than a store accepts as one document (an issue with 300
// comments of 65,000 characters is 19.6 MB as `gh --json` writes it; stores take 16 MiB or
// less), and one such item must never stop the mirror. Its text bodies are cut, each ending in a
// marker, until the file fits: every key, comment, review and reply of `gh`'s shape stays, so `jq`
// queries keep working. An item that cannot fit even with every body cut is skipped and reported.
import { type MirrorJson, serializeMirrorFile } from './gh-format.js';

/** Start of the text that ends every cut body (`[repomem: truncated, kept 8,000 of 65,000 characters; …]`). */
export const MIRROR_TRUNCATION_MARKER = '[repomem: truncated';

/** A mirror file fitted to the store's largest document. */
export type FittedMirrorFile =
  | { readonly kind: 'whole'; readonly content: Uint8Array }
  | {
      readonly kind: 'truncated';
      readonly content: Uint8Array;
      /** Bytes of the whole file as `gh` writes it. */
      readonly fullBytes: number;
      /** Bodies cut. */
      readonly cutBodies: number;
      /** Characters each cut body keeps. */
      readonly keptChars: number;
    }
  | { readonly kind: 'too_large'; readonly fullBytes: number };

const encoder = new TextEncoder();
const number = new Intl.NumberFormat('en-US');

function marker(kept: number, total: number): string {
  return `\n\n${MIRROR_TRUNCATION_MARKER}, kept ${number.format(kept)} of ${number.format(total)} characters; the full text is on GitHub]`;
}

/** `body` cut to at most `cap` characters (never inside a surrogate pair), with the marker. */
function cut(body: string, cap: number): string {
  let end = Math.min(cap, body.length);
  const last = body.charCodeAt(end - 1);
  if (end > 0 && last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${body.slice(0, end)}${marker(end, body.length)}`;
}

/** Every string held under a `body` key, at any depth. */
function bodies(value: MirrorJson, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const entry of value) bodies(entry, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, entry] of Object.entries(value)) {
      if (key === 'body' && typeof entry === 'string') found.push(entry);
      else bodies(entry, found);
    }
  }
  return found;
}

/** `value` with every `body` longer than `cap` characters cut (keys keep their order). */
function withBodiesCut(value: MirrorJson, cap: number): MirrorJson {
  if (Array.isArray(value)) return value.map((entry) => withBodiesCut(entry, cap));
  if (value === null || typeof value !== 'object') return value;
  const out: { [key: string]: MirrorJson } = {};
  for (const [key, entry] of Object.entries(value)) {
    out[key] =
      key === 'body' && typeof entry === 'string' && entry.length > cap ? cut(entry, cap) : withBodiesCut(entry, cap);
  }
  return out;
}

/**
 * The bytes of `json` as a mirror file no larger than `maxBytes`: whole when it fits; otherwise
 * every `body` (item, comments, reviews, replies) longer than the largest cap that fits is cut to
 * that many characters and ends in {@link MIRROR_TRUNCATION_MARKER}; `too_large` when even bodies
 * cut to nothing do not fit (then nothing should be written for the item).
 */
export function fitMirrorFile(json: MirrorJson, maxBytes: number): FittedMirrorFile {
  const full = serializeMirrorFile(json);
  if (full.byteLength <= maxBytes) return { kind: 'whole', content: full };
  const texts = bodies(json);
  // Bytes each body takes in the file (JSON-escaped), to estimate a cap before serialising.
  const sizes = texts.map((text) => ({ chars: text.length, bytes: encoder.encode(JSON.stringify(text)).byteLength }));
  const markerBytes = encoder.encode(JSON.stringify(marker(99_999_999, 99_999_999))).byteLength;
  const estimate = (cap: number): number =>
    sizes.reduce(
      (total, size) =>
        size.chars <= cap ? total : total - size.bytes + Math.ceil((size.bytes / size.chars) * cap) + markerBytes,
      full.byteLength,
    );
  let low = 0;
  let high = Math.max(0, ...sizes.map((size) => size.chars));
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (estimate(middle) <= maxBytes) low = middle;
    else high = middle - 1;
  }
  // The estimate is close, not exact (escapes are not spread evenly): check, and cut more if needed.
  for (let cap = low; ; cap = Math.floor(cap * 0.9)) {
    const content = serializeMirrorFile(withBodiesCut(json, cap));
    if (content.byteLength <= maxBytes) {
      return {
        kind: 'truncated',
        content,
        fullBytes: full.byteLength,
        cutBodies: sizes.filter((size) => size.chars > cap).length,
        keptChars: cap,
      };
    }
    if (cap === 0) return { kind: 'too_large', fullBytes: full.byteLength };
  }
}
