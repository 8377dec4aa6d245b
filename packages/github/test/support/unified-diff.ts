// Why: the loopback contents server answers the compare API from the files it serves, so it
// needs what GitHub computes: a line diff as a unified patch with three lines of context (hunk
// headers in git's style) and a similarity to pair a removed file with an added one as a rename.
// A plain LCS is enough for the small files of the tests.

type Op = { readonly kind: '=' | '-' | '+'; readonly text: string };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function lcsOps(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const table: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i -= 1) {
    for (let j = m - 1; j >= 0; j -= 1) {
      const row = table[i] as number[];
      row[j] =
        a[i] === b[j] ? (table[i + 1] as number[])[j + 1]! + 1 : Math.max((table[i + 1] as number[])[j]!, row[j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      ops.push({ kind: '=', text: a[i] as string });
      i += 1;
      j += 1;
    } else if (j < m && (i === n || (table[i] as number[])[j + 1]! >= (table[i + 1] as number[])[j]!)) {
      ops.push({ kind: '+', text: b[j] as string });
      j += 1;
    } else {
      ops.push({ kind: '-', text: a[i] as string });
      i += 1;
    }
  }
  return ops;
}

/** Lines the two texts share (LCS length) over the longer one's count: 1 for equal texts. */
export function similarity(before: string, after: string): number {
  const a = splitLines(before);
  const b = splitLines(after);
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return lcsOps(a, b).filter((op) => op.kind === '=').length / longest;
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${start},${count}`;
}

/** The unified diff of `before` → `after` as GitHub's `patch` field holds it (no file headers). */
export function unifiedPatch(before: string, after: string, context = 3): { patch: string; changes: number } {
  const ops = lcsOps(splitLines(before), splitLines(after));
  const changed = ops.flatMap((op, index) => (op.kind === '=' ? [] : [index]));
  if (changed.length === 0) return { patch: '', changes: 0 };
  // Group changes whose context windows touch.
  const groups: [number, number][] = [];
  for (const index of changed) {
    const last = groups[groups.length - 1];
    if (last !== undefined && index - last[1] <= 2 * context + 1) last[1] = index;
    else groups.push([index, index]);
  }
  const out: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  let at = 0;
  for (const [first, last] of groups) {
    const from = Math.max(0, first - context);
    const to = Math.min(ops.length - 1, last + context);
    for (; at < from; at += 1) {
      const op = ops[at] as Op;
      if (op.kind !== '+') oldLine += 1;
      if (op.kind !== '-') newLine += 1;
    }
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    for (let index = from; index <= to; index += 1) {
      const op = ops[index] as Op;
      body.push(`${op.kind === '=' ? ' ' : op.kind}${op.text}`);
      if (op.kind !== '+') oldCount += 1;
      if (op.kind !== '-') newCount += 1;
    }
    out.push(
      `@@ -${range(oldCount === 0 ? oldLine - 1 : oldLine, oldCount)} +${range(newCount === 0 ? newLine - 1 : newLine, newCount)} @@`,
      ...body,
    );
    for (; at <= to; at += 1) {
      const op = ops[at] as Op;
      if (op.kind !== '+') oldLine += 1;
      if (op.kind !== '-') newLine += 1;
    }
  }
  return { patch: out.join('\n'), changes: changed.length };
}
