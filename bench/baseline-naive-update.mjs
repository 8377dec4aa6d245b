// Why: the naive baseline for bullet updates: what a script does without repomem, a plain
// read-modify-write of the whole file (readFileSync, split into lines, insert or rewrite one
// line, writeFileSync). No lock, no temp file, no fsync, no version check, so it is a lower
// bound on I/O cost, not a safe alternative. The pure text edits are exported separately so the
// benchmark can also show the cost of the edit alone.
import { readFileSync, writeFileSync } from 'node:fs';

function sectionRange(lines, section) {
  const header = `## ${section}`;
  const start = lines.findIndex((line) => line.trim() === header);
  if (start === -1) return undefined;
  let end = start + 1;
  while (end < lines.length && !/^#{1,2} /.test(lines[end])) end++;
  return { start, end };
}

const isBullet = (line) => /^\s*[-*+] /.test(line);

/** Insert `- text` after the last bullet of `section` (no-op on an exact duplicate). */
export function naiveAddToText(source, section, text) {
  const lines = source.split('\n');
  const range = sectionRange(lines, section);
  if (range === undefined) throw new Error(`section not found: ${section}`);
  const bullet = `- ${text.trim()}`;
  let last = range.start;
  for (let i = range.start + 1; i < range.end; i++) {
    if (lines[i] === bullet) return source;
    if (isBullet(lines[i])) last = i;
  }
  lines.splice(last + 1, 0, bullet);
  return lines.join('\n');
}

/** Rewrite the first bullet of `section` containing `match` (lowercased substring) to `- replacement`. */
export function naiveReplaceInText(source, section, match, replacement) {
  const lines = source.split('\n');
  const range = sectionRange(lines, section);
  if (range === undefined) throw new Error(`section not found: ${section}`);
  const needle = match.trim().toLowerCase();
  for (let i = range.start + 1; i < range.end; i++) {
    if (isBullet(lines[i]) && lines[i].toLowerCase().includes(needle)) {
      lines[i] = `- ${replacement.trim()}`;
      return lines.join('\n');
    }
  }
  throw new Error(`no bullet matched: ${match}`);
}

/** Read-modify-write `file`: add a bullet. */
export function naiveAddBullet(file, section, text) {
  writeFileSync(file, naiveAddToText(readFileSync(file, 'utf8'), section, text));
}

/** Read-modify-write `file`: replace a bullet. */
export function naiveReplaceBullet(file, section, match, replacement) {
  writeFileSync(file, naiveReplaceInText(readFileSync(file, 'utf8'), section, match, replacement));
}
