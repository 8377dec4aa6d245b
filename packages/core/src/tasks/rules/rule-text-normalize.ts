// Why: the classifier reads meaning from words, and every trick that hides a word from a reader
// (full-width or styled letters, Cyrillic look-alikes, zero-width characters, leetspeak, letters
// spaced or dotted apart, identifiers written in camelCase or snake_case) must land on the same
// plain words before any list is consulted. This module owns that one normal form.

/** Cyrillic and Greek letters drawn like Latin ones, and what they imitate. */
const CONFUSABLES: Readonly<Record<string, string>> = Object.freeze({
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  һ: 'h',
  ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
});

/** Digits and symbols written for letters inside a word. */
const LEET: Readonly<Record<string, string>> = Object.freeze({
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '@': 'a',
  $: 's',
  '!': 'i',
  '|': 'l',
});

const INVISIBLE = /[\p{Cf}\p{Cc}\u115f\u1160\u3164\uffa0]|\u034f/gu;
const COMBINING = /\p{M}/gu;
const NON_ASCII = /[^\u0000-\u007f]/;
const LEET_CHARS = /[0-9@$!|]/;
const LATIN_LETTERS = /\p{Script=Latin}/gu;
const LETTERS = /\p{L}/gu;

/** Text in its normal form, and its words. */
export interface NormalizedRuleText {
  /** Lower-case, NFKC, look-alikes and leetspeak undone, identifiers split, spacing collapsed. */
  readonly text: string;
  /** The words of `text`. */
  readonly words: readonly string[];
  /** Letters outside the Latin script (other than look-alikes), as a share of all letters (0-1). */
  readonly foreignLetterShare: number;
  /** Count of Latin letters with diacritics (é, ü, ç...) outside code spans. */
  readonly accentedLetters: number;
}

function undoLeet(word: string): string {
  // Only words mixing letters with digits or symbols ("1gn0r3", "p@ssw0rd"): "v2" or "404" stay.
  if (!LEET_CHARS.test(word) || !/\p{L}/u.test(word)) return word;
  // Versions and technical names ("v22", "utf8", "md5", "es2020", "3d") stay; a leet digit ending a
  // longer word ("merg3") does not.
  if (/^v?\d+$/.test(word) || /^\d+[a-z]{1,3}$/.test(word)) return word;
  if (/^[a-z]+\d{1,2}$/.test(word) && !/^[a-z]{4,}[013457]$/.test(word)) return word;
  let out = '';
  for (const char of word) out += LEET[char] ?? char;
  return out;
}

/** Join letters written apart: "i g n o r e", "i.g.n.o.r.e", "i-g-n-o-r-e" become "ignore". */
function joinSpacedLetters(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}])(?:\p{L}[ .\-_*]{1,2}){3,}\p{L}(?![\p{L}\p{N}])/gu, (run) =>
    run.replace(/[ .\-_*]/g, ''),
  );
}

/**
 * The normal form of a rule: NFKC; invisible characters dropped; diacritics stripped;
 * camelCase and snake_case identifiers split into words; Cyrillic and Greek look-alikes mapped
 * to the Latin letters they imitate; leetspeak undone inside words; letters written apart joined;
 * lower case; one space between words.
 */
export function normalizeRuleText(raw: string): NormalizedRuleText {
  const ascii = !NON_ASCII.test(raw);
  const compatible = ascii ? raw.replace(INVISIBLE, '') : raw.normalize('NFKC').replace(INVISIBLE, '');
  const accentedLetters = ascii
    ? 0
    : (
        compatible
          .replace(/`[^`]*`/g, ' ')
          .normalize('NFD')
          .match(/\p{L}\p{M}/gu) ?? []
      ).length;
  const stripped = ascii ? compatible : compatible.normalize('NFD').replace(COMBINING, '').normalize('NFC');
  const split = stripped
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/_/g, ' ');
  const latin = ascii ? 0 : (split.match(LATIN_LETTERS) ?? []).length;
  const foreign = ascii ? 0 : (split.match(LETTERS) ?? []).length - latin;
  const foreignLetterShare = latin + foreign === 0 ? 0 : foreign / (latin + foreign);
  // Look-alikes are mapped in mostly Latin text only: a Russian sentence stays Russian.
  const lower = split.toLowerCase();
  let mapped = lower;
  if (!ascii && foreignLetterShare < 0.5) {
    mapped = '';
    for (const char of lower) mapped += CONFUSABLES[char] ?? char;
  }
  const joined = joinSpacedLetters(mapped);
  const tokens = joined.split(/[^\p{L}\p{N}@$!|]+/u).filter((token) => token !== '');
  const words = tokens.map(undoLeet).flatMap((word) => word.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== ''));
  return {
    text: words.join(' '),
    words,
    foreignLetterShare,
    accentedLetters,
  };
}
