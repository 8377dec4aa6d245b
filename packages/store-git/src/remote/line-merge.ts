// Why: when two runs edited the same memory document, their edits are combined line by line
// against the common ancestor (diff3). Memory is additive, so two insertions at the same place
// are BOTH kept (remote first, then local, shared lines once) like git's union merge; edits of
// different lines merge cleanly; only overlapping changes of the same lines conflict, and then
// the local run's version wins and the conflict is reported with both versions.
import { diffLines, type LineHunk, splitLines } from './line-diff.js';

/** A region both sides changed differently; the local version was kept. */
export interface LineConflict {
  /** The lines as they were in the common ancestor. */
  readonly base: string;
  /** The lines as the local run wrote them (kept). */
  readonly local: string;
  /** The lines as the remote had them (replaced). */
  readonly remote: string;
}

/** Outcome of {@link mergeLines}. */
export interface LineMergeResult {
  /** The merged text. */
  readonly text: string;
  /** Regions resolved in favour of the local side. */
  readonly conflicts: readonly LineConflict[];
}

interface SideHunk extends LineHunk {
  readonly side: 'local' | 'remote';
}

function overlaps(a: LineHunk, b: LineHunk): boolean {
  const aEmpty = a.baseStart === a.baseEnd;
  const bEmpty = b.baseStart === b.baseEnd;
  if (aEmpty && bEmpty) return a.baseStart === b.baseStart;
  if (aEmpty) return b.baseStart < a.baseStart && a.baseStart < b.baseEnd;
  if (bEmpty) return a.baseStart < b.baseStart && b.baseStart < a.baseEnd;
  return a.baseStart < b.baseEnd && b.baseStart < a.baseEnd;
}

/** Group hunks of both sides into regions that must be resolved together. */
function groupHunks(local: readonly LineHunk[], remote: readonly LineHunk[]): SideHunk[][] {
  const all: SideHunk[] = [
    ...local.map((hunk) => ({ ...hunk, side: 'local' as const })),
    ...remote.map((hunk) => ({ ...hunk, side: 'remote' as const })),
  ].sort((x, y) => x.baseStart - y.baseStart || x.baseEnd - y.baseEnd);
  const groups: SideHunk[][] = [];
  for (const hunk of all) {
    const group = groups.at(-1);
    if (group?.some((member) => overlaps(member, hunk))) group.push(hunk);
    else groups.push([hunk]);
  }
  // Joining can make a later hunk overlap an earlier group's widened range: merge until stable.
  for (let index = 1; index < groups.length; ) {
    const previous = groups[index - 1] as SideHunk[];
    const current = groups[index] as SideHunk[];
    const end = Math.max(...previous.map((hunk) => hunk.baseEnd));
    const start = Math.min(...current.map((hunk) => hunk.baseStart));
    const span: LineHunk = {
      baseStart: Math.min(...previous.map((hunk) => hunk.baseStart)),
      baseEnd: end,
      otherStart: 0,
      otherEnd: 0,
    };
    if (current.some((hunk) => overlaps(span, hunk)) || start < end) {
      previous.push(...current);
      groups.splice(index, 1);
    } else {
      index += 1;
    }
  }
  return groups;
}

/** One side's version of base lines `[start, end)`, given that side's hunks inside the range. */
function sideContent(
  base: readonly string[],
  lines: readonly string[],
  hunks: readonly LineHunk[],
  start: number,
  end: number,
): string[] {
  const out: string[] = [];
  let at = start;
  for (const hunk of hunks) {
    out.push(...base.slice(at, hunk.baseStart), ...lines.slice(hunk.otherStart, hunk.otherEnd));
    at = hunk.baseEnd;
  }
  out.push(...base.slice(at, end));
  return out;
}

/** Union of two insertions: shared lines once, and in each differing stretch remote lines then local ones. */
export function unionLines(remote: readonly string[], local: readonly string[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const hunk of diffLines(remote, local)) {
    out.push(...remote.slice(at, hunk.baseEnd), ...local.slice(hunk.otherStart, hunk.otherEnd));
    at = hunk.baseEnd;
  }
  out.push(...remote.slice(at));
  return out;
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, index) => line === b[index]);
}

/**
 * Three-way merge of `local` and `remote`, both derived from `base` (use `''` for a document
 * both sides created). Never fails: overlapping changes resolve to the local lines and are listed.
 */
export function mergeLines(base: string, local: string, remote: string): LineMergeResult {
  if (local === remote || remote === base) return { text: local, conflicts: [] };
  if (local === base) return { text: remote, conflicts: [] };
  const baseLines = splitLines(base);
  const localLines = splitLines(local);
  const remoteLines = splitLines(remote);
  // A last line without "\n" would never match its continued form; compare with newlines added.
  const terminate = (lines: string[]): string[] =>
    lines.map((line, index) => (index === lines.length - 1 && !line.endsWith('\n') ? `${line}\n` : line));
  const b = terminate(baseLines);
  const l = terminate(localLines);
  const r = terminate(remoteLines);
  const out: string[] = [];
  const conflicts: LineConflict[] = [];
  let at = 0;
  for (const group of groupHunks(diffLines(b, l), diffLines(b, r))) {
    const start = Math.min(...group.map((hunk) => hunk.baseStart));
    const end = Math.max(...group.map((hunk) => hunk.baseEnd));
    out.push(...b.slice(at, start));
    const localHunks = group.filter((hunk) => hunk.side === 'local');
    const remoteHunks = group.filter((hunk) => hunk.side === 'remote');
    const mine = sideContent(b, l, localHunks, start, end);
    const theirs = sideContent(b, r, remoteHunks, start, end);
    if (remoteHunks.length === 0 || sameLines(mine, theirs)) out.push(...mine);
    else if (localHunks.length === 0) out.push(...theirs);
    else if (start === end) out.push(...unionLines(theirs, mine));
    else {
      out.push(...mine);
      conflicts.push({ base: b.slice(start, end).join(''), local: mine.join(''), remote: theirs.join('') });
    }
    at = end;
  }
  out.push(...b.slice(at));
  let text = out.join('');
  // Keep the local side's choice about a final newline (the remote's when only it changed the end).
  const localEnds = local.endsWith('\n') || local.length === 0;
  if (!localEnds && text.endsWith('\n')) text = text.slice(0, -1);
  return { text, conflicts };
}
