// Why: CommonMark code is not structure. A `## Name` or `- item` inside a fenced code block
// (``` or ~~~, any info string, a closing fence at least as long as the opening one) or an
// indented code block is text, so section lookup and every bullet operation must skip those
// lines; this module marks them once per document. Container blocks are approximated: inside a
// list, indented lines continue the list item (never code), which is what memory files hold.

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const BULLET_START = /^ {0,3}[-*+](?:[ \t]|$)/;
const HEADER_START = /^ {0,3}#{1,6}(?:[ \t]|$)/;

/** Width of a line's leading whitespace in columns (a tab advances to the next multiple of 4). */
export function indentColumns(line: string): number {
  let columns = 0;
  for (const character of line) {
    if (character === ' ') columns += 1;
    else if (character === '\t') columns += 4 - (columns % 4);
    else break;
  }
  return columns;
}

interface OpenFence {
  readonly marker: string;
  readonly length: number;
}

function openingFence(line: string): OpenFence | undefined {
  const match = FENCE_OPEN.exec(line);
  if (match === null) return undefined;
  const fence = match[1]!;
  // A backtick fence's info string cannot contain a backtick (that is inline code).
  if (fence[0] === '`' && match[2]!.includes('`')) return undefined;
  return { marker: fence[0]!, length: fence.length };
}

function closesFence(line: string, fence: OpenFence): boolean {
  if (indentColumns(line) > 3) return false;
  const trimmed = line.trim();
  if (trimmed.length < fence.length) return false;
  for (const character of trimmed) if (character !== fence.marker) return false;
  return true;
}

/**
 * For every line, true when it belongs to a code block (fence lines included): such lines are
 * never headers or bullets.
 */
export function codeLineMask(lines: readonly string[]): boolean[] {
  const mask = new Array<boolean>(lines.length).fill(false);
  let fence: OpenFence | undefined;
  let indentedCode = false;
  // An indented code block cannot interrupt a paragraph: it starts after a blank line, a header,
  // a fence, or at the top of the file, and never inside a list.
  let blockBoundary = true;
  let inList = false;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (fence !== undefined) {
      mask[index] = true;
      if (closesFence(line, fence)) {
        fence = undefined;
        blockBoundary = true;
      }
      continue;
    }
    const opening = openingFence(line);
    if (opening !== undefined) {
      mask[index] = true;
      fence = opening;
      indentedCode = false;
      // A fence at the margin ends a list (it is not indented as the item's content).
      if (indentColumns(line) < 2) inList = false;
      continue;
    }
    const blank = line.trim() === '';
    const indent = indentColumns(line);
    if (indentedCode) {
      if (blank || indent >= 4) {
        mask[index] = true;
        continue;
      }
      indentedCode = false;
    }
    if (!blank && indent >= 4 && blockBoundary && !inList) {
      mask[index] = true;
      indentedCode = true;
      continue;
    }
    if (HEADER_START.test(line)) {
      inList = false;
      blockBoundary = true;
      continue;
    }
    if (BULLET_START.test(line)) inList = true;
    else if (!blank && indent === 0 && blockBoundary) inList = false;
    blockBoundary = blank;
  }
  return mask;
}
