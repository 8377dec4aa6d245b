// Why: listing, candidate search and corpus figures all restrict rows to a path prefix. A prefix
// is turned into an index range (`path >= prefix AND path < upper`) plus an exact check on the
// first code points, so a prefix scan uses the (repo, path) index and never matches by LIKE
// patterns (where `_` and `%` would be wildcards).

/**
 * The exclusive upper bound of the strings starting with `prefix` (its last code point plus one),
 * so a prefix scan is an index range; `undefined` when there is none (last code point U+10FFFF).
 */
export function prefixUpperBound(prefix: string): string | undefined {
  const points = [...prefix];
  while (points.length > 0) {
    const last = (points.pop() as string).codePointAt(0) as number;
    if (last < 0x10ffff) {
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return points.join('') + String.fromCodePoint(next);
    }
  }
  return undefined;
}

/** A SQL condition on a path column and its named parameters. */
export interface PrefixCondition {
  /** `TRUE` for the empty prefix, else a condition using `:prefix`, `:length` and maybe `:upper`. */
  readonly sql: string;
  readonly params: Readonly<Record<string, string | number>>;
}

/** The condition "`column` starts with `prefix`" (a normalised prefix; `''` matches every path). */
export function prefixCondition(column: string, prefix: string): PrefixCondition {
  if (prefix === '') return { sql: 'TRUE', params: {} };
  const length = [...prefix].length;
  const upper = prefixUpperBound(prefix);
  const starts = `substr(${column}, 1, :length) = :prefix`;
  if (upper === undefined) return { sql: `${column} >= :prefix AND ${starts}`, params: { prefix, length } };
  return { sql: `${column} >= :prefix AND ${column} < :upper AND ${starts}`, params: { prefix, upper, length } };
}
