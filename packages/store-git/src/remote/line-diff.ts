// Why: three-way merging needs to know which lines two versions of a document share. This is
// Myers' O(ND) difference algorithm on lines (common prefix and suffix trimmed first), giving
// the changed regions ("hunks") that the merge combines.

/** A changed region: base lines `[baseStart, baseEnd)` became other lines `[otherStart, otherEnd)`. */
export interface LineHunk {
  readonly baseStart: number;
  readonly baseEnd: number;
  readonly otherStart: number;
  readonly otherEnd: number;
}

/** Beyond this much work (edit distance x lines) the middle is treated as one changed region. */
const MAX_WORK = 40_000_000;

/** Split text into lines, each keeping its `\n` (the last one may lack it). */
export function splitLines(text: string): string[] {
  if (text.length === 0) return [];
  const lines = text.split('\n').map((line) => `${line}\n`);
  const last = lines.at(-1);
  if (last === '\n') lines.pop();
  else if (last !== undefined) lines[lines.length - 1] = last.slice(0, -1);
  return lines;
}

function myersMatches(a: readonly number[], b: readonly number[]): Array<[number, number]> | undefined {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d += 1) {
    if (d * max > MAX_WORK) return undefined;
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x += 1;
        y += 1;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m, d, offset);
    }
  }
  return [];
}

function backtrack(
  trace: readonly Int32Array[],
  n: number,
  m: number,
  depth: number,
  offset: number,
): Array<[number, number]> {
  const matches: Array<[number, number]> = [];
  let x = n;
  let y = m;
  for (let d = depth; d > 0; d -= 1) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
    const previousK = down ? k + 1 : k - 1;
    const previousX = v[offset + previousK] ?? 0;
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      x -= 1;
      y -= 1;
      matches.push([x, y]);
    }
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) {
    x -= 1;
    y -= 1;
    matches.push([x, y]);
  }
  return matches.reverse();
}

/** The hunks turning `base` into `other` (sorted by position, never overlapping). */
export function diffLines(base: readonly string[], other: readonly string[]): LineHunk[] {
  let prefix = 0;
  while (prefix < base.length && prefix < other.length && base[prefix] === other[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < base.length - prefix &&
    suffix < other.length - prefix &&
    base[base.length - 1 - suffix] === other[other.length - 1 - suffix]
  ) {
    suffix += 1;
  }
  const ids = new Map<string, number>();
  const intern = (line: string): number => {
    let id = ids.get(line);
    if (id === undefined) {
      id = ids.size;
      ids.set(line, id);
    }
    return id;
  };
  const a = base.slice(prefix, base.length - suffix).map(intern);
  const b = other.slice(prefix, other.length - suffix).map(intern);
  const matches = myersMatches(a, b) ?? [];
  const hunks: LineHunk[] = [];
  let x = 0;
  let y = 0;
  for (const [mx, my] of [...matches, [a.length, b.length] as [number, number]]) {
    if (mx > x || my > y) {
      hunks.push({ baseStart: prefix + x, baseEnd: prefix + mx, otherStart: prefix + y, otherEnd: prefix + my });
    }
    x = mx + 1;
    y = my + 1;
  }
  return hunks;
}
