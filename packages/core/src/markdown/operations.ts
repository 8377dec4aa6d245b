// Why: the four bullet edits (add, replace, remove, daily append) as pure functions from file text
// to an outcome plus the new text, so every store gets identical semantics and the facade can
// re-run them on fresh text after a write conflict. Sepo weaknesses 1-4 are fixed here: new
// bullets land after the section's last bullet, identical copies are all handled, `match` is
// compared on normalised text, and section names are case-insensitive and end at `#` headers too.

import type { MemoryFile, UpdateOutcome } from '../memory/outcomes.js';
import type { AddInput, DailyAppendInput, RemoveInput, ReplaceInput } from '../memory/types.js';
import {
  assertDailyDate,
  assertMemoryFile,
  assertSectionName,
  DAILY_ACTIVITY_SECTION,
  dailyLogPath,
} from './arguments.js';
import { bulletMatchKey, isBulletLine, normalizeBullet, normalizeMatch, requireBullet } from './bullet.js';
import { codeLineMask, indentColumns } from './code-blocks.js';
import {
  findSections,
  isBlankDocument,
  type MarkdownDocument,
  type MarkdownSection,
  parseHeader,
  parseMarkdown,
  sectionKey,
  sectionTitle,
  serializeMarkdown,
} from './document.js';

/** Result of a pure bullet operation: the outcome, and the new file text when the file changed. */
export interface BulletEditResult {
  readonly outcome: UpdateOutcome;
  /** New content of the file; present exactly when the outcome wrote something. */
  readonly text?: string;
}

/** Input of {@link dailyAppendBullet}: like `DailyAppendInput` but the date is required. */
export interface DailyAppendRequest extends DailyAppendInput {
  /** Day of the log, `YYYY-MM-DD`. */
  readonly date: string;
}

/** First line of a file seeded by `add` (`# Memory` / `# Project`). */
export function seedTitle(file: MemoryFile): string {
  return file === 'MEMORY.md' ? '# Memory' : '# Project';
}

/**
 * Add a bullet to a section of MEMORY.md / PROJECT.md. An empty or missing file (`source`
 * `undefined`) is seeded with its title and the section. Dedup is section-scoped and exact
 * (case-sensitive) on the normalised bullet, like Sepo. The bullet is inserted right after the
 * section's last bullet (and its continuation lines), or right after the header when the section
 * has no bullet.
 */
export function addBullet(source: string | undefined, input: AddInput): BulletEditResult {
  assertMemoryFile(input.file);
  assertSectionName(input.section);
  const bullet = requireBullet(input.text, 'text');
  const path = input.file;
  const doc = isBlankDocument(source)
    ? seededDocument(source, [seedTitle(input.file), '', `## ${sectionTitle(input.section)}`])
    : parseMarkdown(source!);
  const located = locateSection(doc, path, input.section);
  if ('outcome' in located) return located;
  return insertBullet(doc, located.section, path, bullet);
}

/**
 * Append a bullet to the `## Activity` section of `daily/<date>.md`, creating the file
 * (`# Daily log for <date>`, blank line, `## Activity`) when it is missing or empty, and appending
 * an `## Activity` section when an existing log has none. Dedups like {@link addBullet}.
 */
export function dailyAppendBullet(source: string | undefined, input: DailyAppendRequest): BulletEditResult {
  assertDailyDate(input.date);
  const bullet = requireBullet(input.text, 'text');
  const path = dailyLogPath(input.date);
  const header = `## ${DAILY_ACTIVITY_SECTION}`;
  let doc = isBlankDocument(source)
    ? seededDocument(source, [`# Daily log for ${input.date}`, '', header])
    : parseMarkdown(source!);
  const key = sectionKey(DAILY_ACTIVITY_SECTION);
  if (!doc.sections.some((section) => section.key === key)) {
    const lines = [...trimTrailingBlankLines(doc.lines), '', header];
    const code = codeLineMask(lines);
    doc = { ...doc, lines, sections: findSections(lines, code), code };
  }
  const located = locateSection(doc, path, DAILY_ACTIVITY_SECTION);
  if ('outcome' in located) return located;
  return insertBullet(doc, located.section, path, bullet);
}

/**
 * Rewrite the bullet of a section whose normalised text contains `match` (case- and
 * whitespace-insensitive). Every identical copy of the matched bullet is handled: the first copy is
 * rewritten in place (keeping its indentation) and the others removed. When `with` already exists
 * in the section, the matched copies are removed and the existing bullet kept (`collapsed`).
 */
export function replaceBullet(source: string | undefined, input: ReplaceInput): BulletEditResult {
  assertMemoryFile(input.file);
  assertSectionName(input.section);
  const needle = normalizeMatch(input.match);
  const replacement = requireBullet(input.with, 'with');
  const path = input.file;
  const resolved = resolveMatch(source, path, input.section, input.match, needle);
  if ('outcome' in resolved) return resolved;
  const { doc, bullets, matched } = resolved;
  if (matched === replacement) {
    return { outcome: { kind: 'duplicate', path, bullet: replacement } };
  }
  const copies = bullets.filter((entry) => entry.normalized === matched).map((entry) => entry.index);
  const lines = [...doc.lines];
  if (bullets.some((entry) => entry.normalized === replacement)) {
    removeIndices(lines, copies);
    return {
      outcome: { kind: 'collapsed', path, from: matched, bullet: replacement },
      text: serializeMarkdown(lines, doc.eol, doc.bom),
    };
  }
  const [first, ...rest] = copies;
  const original = lines[first!]!;
  lines[first!] = original.slice(0, original.length - original.trimStart().length) + replacement;
  removeIndices(lines, rest);
  return {
    outcome: { kind: 'replaced', path, from: matched, bullet: replacement },
    text: serializeMarkdown(lines, doc.eol, doc.bom),
  };
}

/**
 * Remove the bullet of a section whose normalised text contains `match` (case- and
 * whitespace-insensitive), every identical copy of it.
 */
export function removeBullet(source: string | undefined, input: RemoveInput): BulletEditResult {
  assertMemoryFile(input.file);
  assertSectionName(input.section);
  const needle = normalizeMatch(input.match);
  const path = input.file;
  const resolved = resolveMatch(source, path, input.section, input.match, needle);
  if ('outcome' in resolved) return resolved;
  const { doc, bullets, matched } = resolved;
  const lines = [...doc.lines];
  removeIndices(
    lines,
    bullets.filter((entry) => entry.normalized === matched).map((entry) => entry.index),
  );
  return { outcome: { kind: 'removed', path, bullet: matched }, text: serializeMarkdown(lines, doc.eol, doc.bom) };
}

interface BulletLine {
  readonly index: number;
  readonly normalized: string;
}

function seededDocument(source: string | undefined, lines: string[]): MarkdownDocument {
  const detected = source === undefined ? undefined : parseMarkdown(source);
  return { ...parseMarkdown(lines.join('\n')), lines, eol: detected?.eol ?? '\n', bom: detected?.bom ?? false };
}

function locateSection(
  doc: MarkdownDocument,
  path: string,
  section: string,
): { section: MarkdownSection } | { outcome: UpdateOutcome } {
  const key = sectionKey(section);
  const found = doc.sections.filter((entry) => entry.key === key);
  if (found.length === 0) {
    return {
      outcome: { kind: 'missing_section', path, section, sections: doc.sections.map((entry) => entry.name) },
    };
  }
  if (found.length > 1) {
    return {
      outcome: { kind: 'duplicate_section', path, section, lines: found.map((entry) => entry.headerIndex + 1) },
    };
  }
  return { section: found[0]! };
}

/** Bullets of a section, code-block lines excluded. */
function bulletsOf(doc: MarkdownDocument, section: MarkdownSection): BulletLine[] {
  const bullets: BulletLine[] = [];
  for (let index = section.bodyStart; index < section.bodyEnd; index += 1) {
    const line = doc.lines[index]!;
    if (doc.code[index] !== true && isBulletLine(line)) bullets.push({ index, normalized: normalizeBullet(line) });
  }
  return bullets;
}

function insertBullet(doc: MarkdownDocument, section: MarkdownSection, path: string, bullet: string): BulletEditResult {
  const { lines } = doc;
  let lastBullet = -1;
  for (const entry of bulletsOf(doc, section)) {
    if (entry.normalized === bullet) return { outcome: { kind: 'duplicate', path, bullet } };
    lastBullet = entry.index;
  }
  const insertAt =
    lastBullet < 0 ? firstInsertPosition(doc, section) : endOfBulletBlock(doc, lastBullet, section.bodyEnd);
  const next = [...lines.slice(0, insertAt), bullet, ...lines.slice(insertAt)];
  return { outcome: { kind: 'added', path, bullet }, text: serializeMarkdown(next, doc.eol, doc.bom) };
}

/**
 * Where the first bullet of a section goes: right after the header, or after an indented code
 * block that opens the section (a bullet before it would turn the code into list content).
 */
function firstInsertPosition(doc: MarkdownDocument, section: MarkdownSection): number {
  let index = section.bodyStart;
  while (index < section.bodyEnd && doc.lines[index]!.trim() === '') index += 1;
  if (index >= section.bodyEnd || doc.code[index] !== true || indentColumns(doc.lines[index]!) < 4) {
    return section.bodyStart;
  }
  let end = index;
  while (index < section.bodyEnd && doc.code[index] === true) {
    if (doc.lines[index]!.trim() !== '') end = index + 1;
    index += 1;
  }
  return end;
}

/**
 * Index after a bullet's block: the bullet line plus following non-blank continuation lines, and
 * any code block indented under the bullet as a whole (a new bullet never lands inside code).
 */
function endOfBulletBlock(doc: MarkdownDocument, bulletIndex: number, bodyEnd: number): number {
  const { lines, code } = doc;
  let next = bulletIndex + 1;
  while (next < bodyEnd) {
    const line = lines[next]!;
    if (code[next] === true) {
      if (indentColumns(line) === 0) break;
      while (next < bodyEnd && code[next] === true) next += 1;
      continue;
    }
    if (line.trim() === '' || isBulletLine(line) || parseHeader(line) !== undefined) break;
    next += 1;
  }
  return next;
}

function resolveMatch(
  source: string | undefined,
  path: string,
  section: string,
  match: string,
  needle: string,
): { outcome: UpdateOutcome } | { doc: MarkdownDocument; bullets: BulletLine[]; matched: string } {
  const doc = parseMarkdown(source ?? '');
  const located = locateSection(doc, path, section);
  if ('outcome' in located) return located;
  const bullets = bulletsOf(doc, located.section);
  const distinct = new Set<string>();
  for (const entry of bullets) {
    if (!distinct.has(entry.normalized) && bulletMatchKey(entry.normalized).includes(needle)) {
      distinct.add(entry.normalized);
    }
  }
  if (distinct.size === 0) return { outcome: { kind: 'no_match', path, section, match } };
  if (distinct.size > 1) {
    return { outcome: { kind: 'ambiguous', path, section, match, candidates: [...distinct] } };
  }
  return { doc, bullets, matched: [...distinct][0]! };
}

function removeIndices(lines: string[], indices: readonly number[]): void {
  const sorted = [...indices].sort((a, b) => b - a);
  for (const index of sorted) lines.splice(index, 1);
}

function trimTrailingBlankLines(lines: readonly string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end -= 1;
  return lines.slice(0, end);
}
