// Why: one definition of what a bullet is and how its text is normalised and matched, shared by
// every bullet operation, so dedup, matching and ambiguity agree byte for byte with Sepo's
// `memory/update.js` (normalisation) while matching is marker-, case- and whitespace-insensitive.
import { RepomemError } from '../errors.js';
import { assertBulletSize, assertNoControlCharacters } from './bullet-text-rules.js';

const MARKER_PREFIX = /^[-*+]\s+/;
const BULLET_LINE = /^\s*[-*+]\s+\S/;
const WHITESPACE_RUN = /\s+/g;
const LONE_MARKER = /^[-*+]$/;

function collapseText(raw: string): string {
  return raw.replace(/\r/g, '').replace(WHITESPACE_RUN, ' ').trim();
}

/** Longest candidate preview Sepo prints for an ambiguous match (characters). */
export const BULLET_PREVIEW_CHARS = 120;

/**
 * Normalise bullet text exactly like Sepo: drop `\r`, collapse whitespace runs to one space, trim,
 * strip one leading `-`/`*`/`+` marker (followed by whitespace), then prefix `- `.
 * Returns `''` when nothing is left, or when the text is a lone marker (`-`) (see {@link requireBullet} for the throwing variant).
 *
 * @example normalizeBullet('  *  use   pnpm ') === '- use pnpm'
 */
export function normalizeBullet(raw: string): string {
  const collapsed = collapseText(raw);
  // A lone marker is empty text (Sepo would write `- -`).
  if (collapsed === '' || LONE_MARKER.test(collapsed)) return '';
  const stripped = collapsed.replace(MARKER_PREFIX, '');
  if (stripped === '') return '';
  return `- ${stripped}`;
}

/**
 * Normalise bullet text and refuse, with `INVALID_ARGUMENT`, empty text, text holding a control
 * character (anything but tab and line breaks, see bullet-text-rules.ts) and a bullet over
 * `MAX_BULLET_BYTES` (4 KiB).
 * @param what - name of the argument for the error message (e.g. `text`, `with`).
 */
export function requireBullet(raw: string, what = 'bullet text'): string {
  if (typeof raw === 'string') assertNoControlCharacters(raw, what);
  const normalized = typeof raw === 'string' ? normalizeBullet(raw) : '';
  if (normalized === '') {
    throw new RepomemError('INVALID_ARGUMENT', `${what} must be non-empty`, { details: { [what]: raw } });
  }
  assertBulletSize(normalized, what);
  return normalized;
}

/** True when `line` is a bullet: its trimmed form starts with `-`, `*` or `+` and a space (and has text). */
export function isBulletLine(line: string): boolean {
  return BULLET_LINE.test(line);
}

/**
 * The form `match` compares against: the normalised bullet without its `- ` marker, lowercased.
 * Case-, whitespace-, marker- and indentation-insensitive (fixes Sepo weakness 3).
 */
export function bulletMatchKey(normalizedBullet: string): string {
  return (normalizedBullet.startsWith('- ') ? normalizedBullet.slice(2) : normalizedBullet).toLowerCase();
}

/**
 * Normalise a `match` argument into the needle compared (as a substring) against
 * {@link bulletMatchKey}. Throws `INVALID_ARGUMENT` when it is empty.
 */
export function normalizeMatch(match: string): string {
  const needle = typeof match === 'string' ? collapseText(match).replace(MARKER_PREFIX, '') : '';
  if (needle === '') {
    throw new RepomemError('INVALID_ARGUMENT', 'match must be non-empty', { details: { match } });
  }
  return needle.toLowerCase();
}

/**
 * Shorten a bullet for display the way Sepo lists ambiguous candidates (at most
 * {@link BULLET_PREVIEW_CHARS} characters, ending in `…` when cut).
 */
export function previewBullet(bullet: string): string {
  return bullet.length > BULLET_PREVIEW_CHARS ? `${bullet.slice(0, BULLET_PREVIEW_CHARS - 1).trimEnd()}…` : bullet;
}
