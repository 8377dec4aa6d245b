// Why: the cheapest way to slip an instruction past a reader (human or filter) is with
// characters that do not look like what they are: zero-width and bidirectional controls hide or
// reorder text, and look-alike letters from other scripts or "styled" Unicode forms spell words
// a pattern filter does not recognise. A coding rule needs none of them, so they are refused.

/**
 * Invisible or reordering characters: C0/C1 controls other than tab, soft hyphen, combining
 * grapheme joiner, Arabic letter mark, Hangul fillers, Mongolian vowel separator, zero-width
 * space/joiners, directional marks, embeddings, overrides and isolates, word joiner and
 * invisible operators, byte-order mark, interlinear annotation controls, variation selectors,
 * tag characters and private-use code points.
 */
const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0x0000, 0x0008],
  [0x000a, 0x001f],
  [0x007f, 0x009f],
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200f],
  [0x2028, 0x202e],
  [0x2060, 0x206f],
  [0x3164, 0x3164],
  [0xe000, 0xf8ff],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff9, 0xfffb],
  [0xe0000, 0xe007f],
  [0xe0100, 0xe01ef],
  [0xf0000, 0x10ffff],
];

function isInvisible(codePoint: number): boolean {
  return INVISIBLE_RANGES.some(([low, high]) => codePoint >= low && codePoint <= high);
}

/** Letters of scripts whose glyphs imitate Latin ones (Cyrillic, Greek, Armenian, Cherokee...). */
const LOOKALIKE_SCRIPT =
  /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}\p{Script=Coptic}\p{Script=Lisu}\p{Script=Canadian_Aboriginal}]/u;
const LATIN_LETTER = /\p{Script=Latin}/u;
/**
 * Latin-looking forms no coding rule needs: IPA and phonetic letters (`ᴀ`), modifier letters,
 * Latin Extended-C/D/E, letterlike symbols (`ℐ`), enclosed alphanumerics (`ⓐ`), and unusual
 * spaces (en/em spaces, narrow no-break, ideographic, Ogham).
 */
const LOOKALIKE_LATIN =
  /[\u0250-\u02ff\u1d00-\u1dbf\u2100-\u214f\u2460-\u24ff\u2c60-\u2c7f\ua720-\ua7ff\uab30-\uab6f\u2000-\u200a\u202f\u205f\u3000\u1680]/u;
const ASCII_ALNUM = /^[A-Za-z0-9]+$/;
/** Cyrillic and Greek letters drawn like Latin ones. */
const HOMOGLYPHS = new Set([...'аеорсухіјѕԁԛԝһӏАВЕКМНОРСТУХІЈЅԚԜΑΒΕΖΗΙΚΜΝΟΡΤΥΧοντ']);

/** A character that does not look like what it is. */
export type SuspiciousCharacter =
  | { readonly kind: 'invisible'; readonly codePoint: string }
  | { readonly kind: 'lookalike'; readonly codePoint: string };

function codePointLabel(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The first suspicious character of `text`, or `null`:
 * - `invisible`: a control, zero-width, bidirectional, variation-selector, tag or private-use character;
 * - `lookalike`: a non-ASCII character whose compatibility form is ASCII letters or digits
 *   (fullwidth `Ａ`, mathematical `𝐀`, ligature `ﬁ`, superscript `²`), a word mixing Latin
 *   letters with letters of a look-alike script (Cyrillic `а`, Greek `ο`...), or, in mostly Latin
 *   text, a word made only of such homoglyphs. Text written in Cyrillic or Greek that names
 *   Latin-script tools (`TypeScript`) passes.
 */
export function findSuspiciousCharacter(text: string): SuspiciousCharacter | null {
  for (const char of text) {
    if (isInvisible(char.codePointAt(0) ?? 0)) return { kind: 'invisible', codePoint: codePointLabel(char) };
  }
  const odd = LOOKALIKE_LATIN.exec(text);
  if (odd !== null) return { kind: 'lookalike', codePoint: codePointLabel(odd[0]) };
  for (const char of text) {
    if (char.charCodeAt(0) < 0x80) continue;
    if (ASCII_ALNUM.test(char.normalize('NFKC'))) return { kind: 'lookalike', codePoint: codePointLabel(char) };
  }
  let latin = 0;
  let other = 0;
  for (const char of text) {
    if (LATIN_LETTER.test(char)) latin += 1;
    else if (LOOKALIKE_SCRIPT.test(char)) other += 1;
  }
  if (latin === 0 || other === 0) return null;
  for (const word of text.match(/\p{L}+/gu) ?? []) {
    const mixed = LATIN_LETTER.test(word) && LOOKALIKE_SCRIPT.test(word);
    // A whole word of homoglyphs ("рау" in Cyrillic) inside mostly Latin text spells a Latin word.
    const disguised = latin > other && !LATIN_LETTER.test(word) && [...word].every((char) => HOMOGLYPHS.has(char));
    if (mixed || disguised) {
      const char = [...word].find((c) => LOOKALIKE_SCRIPT.test(c)) ?? word;
      return { kind: 'lookalike', codePoint: codePointLabel(char) };
    }
  }
  return null;
}
