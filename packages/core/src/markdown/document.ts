// Why: a memory file is read once into lines plus its `## Name` sections, and written back with the
// same line ending (a CRLF file stays CRLF) and exactly one final newline. Every bullet operation
// edits the line array between these two steps, so nothing outside the target section moves.
// Lines inside code blocks (see code-blocks.ts) are never headers, so they never open a section.
import { codeLineMask } from './code-blocks.js';

/** Line ending of a document: the first line break found decides (`\n` when there is none). */
export type LineEnding = '\n' | '\r\n';

/** A `## Name` section: its header line and the body up to the next level-1 or level-2 header. */
export interface MarkdownSection {
  /** Name as written in the header, trimmed (e.g. `Durable`). */
  readonly name: string;
  /** Comparison key: whitespace collapsed, trimmed, lowercased (see {@link sectionKey}). */
  readonly key: string;
  /** 0-based index of the header line. */
  readonly headerIndex: number;
  /** 0-based index of the first body line (`headerIndex + 1`). */
  readonly bodyStart: number;
  /** 0-based index one past the last body line: the next `#`/`##` header, or the line count. */
  readonly bodyEnd: number;
}

/** A memory file split into lines, with what is needed to write it back faithfully. */
export interface MarkdownDocument {
  /** Lines without their line endings (a final newline does not produce an extra empty line). */
  readonly lines: string[];
  /** Line ending used when the document is serialised. */
  readonly eol: LineEnding;
  /** The text started with a UTF-8 byte order mark (kept on write). */
  readonly bom: boolean;
  /** Every `##` section in file order. */
  readonly sections: readonly MarkdownSection[];
  /** Per line, true when it lies in a fenced or indented code block (never a header or bullet). */
  readonly code: readonly boolean[];
}

const HEADER = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const CLOSING_HASHES = /(?:^|[ \t]+)#+$/;
const BOM = '\uFEFF';

/** A parsed ATX header line. */
export interface MarkdownHeader {
  /** Number of `#` characters (1 to 6). */
  readonly level: number;
  /** Header text, trimmed, closing `#` sequence removed. */
  readonly name: string;
}

/** Parse `line` as an ATX header (`# Title`, `## Name`, up to 3 leading spaces), or `undefined`. */
export function parseHeader(line: string): MarkdownHeader | undefined {
  const hash = line.indexOf('#');
  if (hash < 0 || hash > 3) return undefined;
  const match = HEADER.exec(line);
  if (match === null) return undefined;
  const name = (match[2] ?? '').replace(CLOSING_HASHES, '').trim();
  return { level: match[1]!.length, name };
}

/**
 * Comparison key of a section name: closing `#`s dropped, whitespace collapsed, trimmed, lowercased
 * (fixes Sepo weakness 4).
 */
export function sectionKey(name: string): string {
  return name.trim().replace(CLOSING_HASHES, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** Display form of a section name as written into a new header: whitespace collapsed and trimmed. */
export function sectionTitle(name: string): string {
  return name.replace(/\s+/g, ' ').trim();
}

/**
 * Find every `##` section of `lines`; a section ends at the next level-1 or level-2 header.
 * Header-like lines inside code blocks (`code`, default {@link codeLineMask}) do not count.
 */
export function findSections(
  lines: readonly string[],
  code: readonly boolean[] = codeLineMask(lines),
): MarkdownSection[] {
  const sections: MarkdownSection[] = [];
  let open: { name: string; headerIndex: number } | undefined;
  for (let index = 0; index < lines.length; index += 1) {
    if (code[index] === true) continue;
    const header = parseHeader(lines[index]!);
    if (header === undefined || header.level > 2) continue;
    if (open !== undefined) sections.push(makeSection(open.name, open.headerIndex, index));
    open = header.level === 2 ? { name: header.name, headerIndex: index } : undefined;
  }
  if (open !== undefined) sections.push(makeSection(open.name, open.headerIndex, lines.length));
  return sections;
}

function makeSection(name: string, headerIndex: number, bodyEnd: number): MarkdownSection {
  // `name` has had its closing `#`s removed by parseHeader: dropping them again would turn the
  // header written for the name `# #` (`## # #`, read back as `#`) into the key "" instead of "#".
  const key = name.replace(/\s+/g, ' ').trim().toLowerCase();
  return { name, key, headerIndex, bodyStart: headerIndex + 1, bodyEnd };
}

/** Split `text` into a {@link MarkdownDocument} (line ending and BOM detected, sections found). */
export function parseMarkdown(text: string): MarkdownDocument {
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(1) : text;
  const firstBreak = body.indexOf('\n');
  const eol: LineEnding = firstBreak > 0 && body.charCodeAt(firstBreak - 1) === 13 ? '\r\n' : '\n';
  const lines = body === '' ? [] : body.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line.endsWith('\r')) lines[index] = line.slice(0, -1);
  }
  if (lines.length > 0 && lines[lines.length - 1] === '' && body.endsWith('\n')) lines.pop();
  const code = codeLineMask(lines);
  return { lines, eol, bom, sections: findSections(lines, code), code };
}

/**
 * Serialise lines with `eol`, dropping blank lines at the end of the file, so the result ends
 * with exactly one line ending (an empty document serialises to `''`).
 */
export function serializeMarkdown(lines: readonly string[], eol: LineEnding, bom = false): string {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.trim() === '') end -= 1;
  if (end === 0) return bom ? BOM : '';
  let out = bom ? BOM : '';
  for (let index = 0; index < end; index += 1) out += lines[index]! + eol;
  return out;
}

/** True when `text` holds nothing but whitespace (treated like a missing file: it gets seeded). */
export function isBlankDocument(text: string | undefined): boolean {
  return text === undefined || text.replace(BOM, '').trim() === '';
}
