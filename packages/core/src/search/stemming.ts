// Why: light English inflection handling for every lexical match (search, and hydration's record
// words): `policy` must find `policies`, `cache` find `caching`, `migrate` find `migration`. The
// stems come from a maintained implementation of Porter's algorithm (the npm `stemmer` package,
// pinned; see core's README), never from a hand-made list. Matching stays on the surface words
// that documents already index (FTS5, tsvector, core's index and its on-disk cache): a word
// matches a term when their stems are equal, and every such word starts with the term's
// `needle` (see `stemNeedle`), so every prefilter and store index can still narrow by text.
import { stemmer } from 'stemmer';

/**
 * Version of the lexical analysis (word split plus stemming). Anything that persists analysed
 * words keyed by it (a native index of stems, a cache) must be rebuilt when it changes.
 */
export const LEXICAL_ANALYZER_VERSION = 'porter-stemmer-2.0.1';

/** Words stemmed: ASCII letters only (Porter's algorithm is English). */
const STEMMABLE = /^[a-z]+$/;
/** Shortest needle a stem is matched by (shorter ones would name most of a corpus as candidates). */
export const MIN_STEM_NEEDLE_LENGTH = 3;
const MAX_CACHED_STEMS = 200_000;
const stems = new Map<string, string>();

/**
 * The stem of a lowercased word: Porter's stem for words of ASCII letters, the word itself for
 * anything else (digits, other scripts, mixed). Cached, so a vocabulary is stemmed once.
 *
 * @example stemWord('policies') // 'polici' (also the stem of 'policy')
 */
export function stemWord(word: string): string {
  const known = stems.get(word);
  if (known !== undefined) return known;
  const stem = word.length < 3 || !STEMMABLE.test(word) ? word : stemmer(word);
  if (stems.size >= MAX_CACHED_STEMS) stems.clear();
  stems.set(word, stem);
  return stem;
}

/**
 * The longest start of `stem` that every word with this stem starts with. Porter's steps only
 * rewrite a word's end, and the letters they add that the word need not hold are at most the
 * last two of a stem: `le` (`-biliti` -> `-ble`), `l` (that `le` once step 5 drops its `e`),
 * `e` (step 1b, `-ation` -> `-ate`) or `i` (`y` -> `i`). So the stem less such an ending is a
 * prefix of the word (checked over a large vocabulary by the tests).
 */
export function stemNeedle(stem: string): string {
  if (stem.endsWith('le')) return stem.slice(0, -2);
  const last = stem.at(-1);
  return last === 'e' || last === 'i' || last === 'l' ? stem.slice(0, -1) : stem;
}

/** How a query word also matches its inflections. */
export interface TermStem {
  /** The word's stem. */
  readonly stem: string;
  /** Start shared by every word with that stem (a prefix of the term itself). */
  readonly needle: string;
}

/**
 * The stem a query word matches inflections by, or `undefined` when it matches none (not ASCII
 * letters, or a stem too short to narrow by, like `uses` -> `us`).
 */
export function termStem(word: string): TermStem | undefined {
  if (!STEMMABLE.test(word)) return undefined;
  const stem = stemWord(word);
  const needle = stemNeedle(stem);
  if (needle.length < MIN_STEM_NEEDLE_LENGTH || !word.startsWith(needle)) return undefined;
  return { stem, needle };
}

/** True when `word` (lowercased) is an inflection of a term with this stem (same stem). */
export function sharesStem(stem: TermStem, word: string): boolean {
  return word.startsWith(stem.needle) && stemWord(word) === stem.stem;
}
