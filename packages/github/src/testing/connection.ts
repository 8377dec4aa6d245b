// Why: Relay connections the way GitHub pages them. Cursors are opaque base64 strings that encode
// the position's sort key (not an offset), so an item that moves while a client pages (an update
// under `orderBy: UPDATED_AT`) moves past the client's cursor instead of shifting every page, as on
// GitHub. `first`/`last`/`after`/`before` follow the Relay specification's algorithm.
import { GraphQLError } from 'graphql';

/** A sort key: compared element by element (strings lexicographically, numbers numerically). */
export type SortKey = readonly (string | number)[];

/** Paging arguments every GitHub connection takes. */
export interface ConnectionArgs {
  readonly first?: number | null;
  readonly last?: number | null;
  readonly after?: string | null;
  readonly before?: string | null;
}

/** A page of a connection, shaped like GitHub's `*Connection` types. */
export interface ConnectionPage<T> {
  readonly totalCount: number;
  readonly nodes: T[];
  readonly edges: { readonly cursor: string; readonly node: T }[];
  readonly pageInfo: {
    readonly hasNextPage: boolean;
    readonly hasPreviousPage: boolean;
    readonly startCursor: string | null;
    readonly endCursor: string | null;
  };
}

const CURSOR_PREFIX = 'cursor:v2:';

/** Encodes a sort key as an opaque cursor. */
export function encodeCursor(key: SortKey): string {
  return Buffer.from(CURSOR_PREFIX + JSON.stringify(key), 'utf8').toString('base64');
}

/** Decodes a cursor made by {@link encodeCursor}; undefined when it is not one. */
export function decodeCursor(cursor: string): SortKey | undefined {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  if (!text.startsWith(CURSOR_PREFIX)) return undefined;
  try {
    const key: unknown = JSON.parse(text.slice(CURSOR_PREFIX.length));
    if (Array.isArray(key) && key.every((part) => typeof part === 'string' || typeof part === 'number')) return key;
  } catch {
    return undefined;
  }
  return undefined;
}

/** Compares two sort keys ascending. */
export function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

/**
 * One page of `items` (already filtered). Items are ordered by `keyOf` ascending, or descending
 * when `descending`; cursors encode keys, so they stay valid while the data changes.
 */
export function paginate<T>(
  items: readonly T[],
  args: ConnectionArgs,
  keyOf: (item: T) => SortKey,
  descending = false,
): ConnectionPage<T> {
  const sign = descending ? -1 : 1;
  const keyed = items.map((item) => ({ item, key: keyOf(item) }));
  keyed.sort((a, b) => sign * compareKeys(a.key, b.key));
  let start = 0;
  let end = keyed.length;
  if (args.after != null) {
    const after = cursorArgument(args.after);
    const at = keyed.findIndex((entry) => sign * compareKeys(entry.key, after) > 0);
    start = at < 0 ? keyed.length : at;
  }
  if (args.before != null) {
    const before = cursorArgument(args.before);
    const at = keyed.findIndex((entry) => sign * compareKeys(entry.key, before) >= 0);
    end = at < 0 ? keyed.length : at;
  }
  if (end < start) end = start;
  let from = start;
  let to = end;
  if (args.first != null && to - from > args.first) to = from + args.first;
  if (args.last != null && to - from > args.last) from = to - args.last;
  const page = keyed.slice(from, to);
  const edges = page.map((entry) => ({ cursor: encodeCursor(entry.key), node: entry.item }));
  return {
    totalCount: keyed.length,
    nodes: page.map((entry) => entry.item),
    edges,
    pageInfo: {
      hasNextPage: to < end || (args.first == null && end < keyed.length && args.before != null),
      hasPreviousPage: from > start || (args.last == null && start > 0 && args.after != null),
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

function cursorArgument(cursor: string): SortKey {
  const key = decodeCursor(cursor);
  if (key === undefined) {
    throw new GraphQLError(`\`${cursor}\` does not appear to be a valid cursor.`, {
      extensions: { type: 'INVALID_CURSOR_ARGUMENTS' },
    });
  }
  return key;
}
