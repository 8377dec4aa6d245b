// Why: the few places where text becomes SQL syntax rather than a bound parameter (a schema
// identifier, a LIKE pattern, tsvector and tsquery literals) each need exact quoting, or a path
// with `%`, a word with `'` or a schema name could change a statement's meaning. They are here
// together, small and tested, and everything else is a bound parameter.

/** `name` as a double-quoted SQL identifier. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * `text` as a standard SQL string literal (`'` doubled). Only for statements sent while
 * `standard_conforming_strings` is on (every transaction of this package sets it), where a
 * backslash is an ordinary character. Text with a NUL character is refused (PostgreSQL text
 * cannot hold it).
 */
export function sqlLiteral(text: string): string {
  if (text.includes('\0')) throw new Error('a SQL literal cannot hold a NUL character');
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * `text` as an escape-string literal (`E'…'`, backslashes and quotes doubled): read the same way
 * whatever `standard_conforming_strings` is, for statements sent without bound parameters.
 * Text with a NUL character is refused (PostgreSQL text cannot hold it).
 */
export function escapedLiteral(text: string): string {
  if (text.includes('\0')) throw new Error('a SQL literal cannot hold a NUL character');
  return `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** One value as a SQL literal: text (escape string), finite number, boolean, NULL, or a text array. */
function literalOf(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return escapedLiteral(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('a SQL literal number must be finite');
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (Array.isArray(value)) {
    return value.length === 0 ? "'{}'" : `ARRAY[${value.map((item) => literalOf(item)).join(', ')}]`;
  }
  throw new Error(`no SQL literal for a ${typeof value}`);
}

/**
 * `sql` with its `$1`, `$2`… placeholders replaced by literals of `values` (each followed by the
 * cast the statement already writes, e.g. `$2::uuid`), for a one-round-trip simple query.
 */
export function inlineParameters(sql: string, values: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, index: string) => {
    const position = Number(index) - 1;
    if (position < 0 || position >= values.length) throw new Error(`no value for $${index}`);
    return literalOf(values[position]);
  });
}

/** A LIKE pattern (with `ESCAPE '\'`) matching every text that starts with `prefix`. */
export function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * Longest indexed word, in characters. A tsvector lexeme is at most 2047 bytes and a character
 * at most 4 bytes in UTF-8, so longer words are indexed as their first 500 characters: a query
 * term shorter than that still matches them exactly as a prefix and never equals them.
 */
export const MAX_INDEXED_WORD_CHARS = 500;

/** `word` as a tsvector/tsquery lexeme literal (`'it''s'`, backslashes doubled). */
export function quoteLexeme(word: string): string {
  return `'${word.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/** `word` cut to {@link MAX_INDEXED_WORD_CHARS} characters (whole code points). */
export function indexedWord(word: string): string {
  if (word.length <= MAX_INDEXED_WORD_CHARS) return word;
  return Array.from(word).slice(0, MAX_INDEXED_WORD_CHARS).join('');
}

/** One group of words and the tsvector weight (`A`..`D`) they carry. */
export interface WeightedWords {
  readonly words: readonly string[];
  readonly weight: 'A' | 'B' | 'C' | 'D';
}

/** Most positions kept per lexeme (PostgreSQL keeps at most 256). */
const MAX_POSITIONS = 255;
/** Largest tsvector position. */
const MAX_POSITION = 16_383;

/**
 * A tsvector literal of `groups` with positions and weights, words taken verbatim (no parser,
 * no stemming): what `'simple'` would produce from core's words, but without PostgreSQL's own
 * tokenizer splitting them differently. Positions let `ts_rank` count occurrences.
 */
export function weightedVectorLiteral(groups: readonly WeightedWords[]): string {
  const positions = new Map<string, string[]>();
  let position = 0;
  for (const group of groups) {
    for (const raw of group.words) {
      position = Math.min(position + 1, MAX_POSITION);
      const word = indexedWord(raw);
      let list = positions.get(word);
      if (list === undefined) {
        list = [];
        positions.set(word, list);
      }
      if (list.length < MAX_POSITIONS) list.push(`${position}${group.weight}`);
    }
  }
  return [...positions].map(([word, list]) => `${quoteLexeme(word)}:${list.join(',')}`).join(' ');
}

/** A tsquery literal: every word (`&`) or any word (`|`), each literal, `prefix` ones with `:*`. */
export function tsqueryLiteral(
  terms: ReadonlyArray<{ readonly text: string; readonly prefix: boolean }>,
  operator: '&' | '|',
): string {
  return terms.map((term) => `${quoteLexeme(term.text)}${term.prefix ? ':*' : ''}`).join(` ${operator} `);
}
