// Why: what one vector stands for. A sentence encoder sees a few sentences well and a whole file
// badly, so documents are cut into the units people write: a Markdown bullet or paragraph under
// its section heading, a mirrored issue or pull request as its title alone, its title and body
// and then each comment and review prefixed with the title, a record (learning, episode, rule...)
// whole; a body is cut at about 90 words. Each
// chunk is named by the hash of its text, so a vector is computed once per distinct text and an
// unchanged chunk of an edited document keeps its vector.
import { createHash } from 'node:crypto';

/** One unit of text that gets one vector. */
export interface Chunk {
  /** The text embedded (heading or title prefix included). */
  readonly text: string;
  /** Content hash of `text` (32 hex characters of its SHA-256): the vector's key. */
  readonly hash: string;
}

/**
 * Longest chunk body in characters (about 90 words); longer units are cut at line or sentence
 * ends. A sentence encoder averages a long text into a vague vector: at 1,500 the fixture search
 * set's semantic ranking was worse (docs/architecture.md, "Chunks").
 */
export const MAX_CHUNK_CHARS = 600;

/** Longest record text embedded whole by {@link chunkRecord}. */
const MAX_RECORD_CHARS = 6_000;

/** The key of a chunk text (32 hex characters of its SHA-256). */
export function chunkHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

function chunk(text: string): Chunk {
  return { text, hash: chunkHash(text) };
}

/** Cut `text` into pieces of at most {@link MAX_CHUNK_CHARS}, at a line end or sentence end when possible. */
function split(text: string): string[] {
  const pieces: string[] = [];
  let rest = text.trim();
  while (rest.length > MAX_CHUNK_CHARS) {
    const window = rest.slice(0, MAX_CHUNK_CHARS);
    let cut = window.lastIndexOf('\n');
    if (cut < MAX_CHUNK_CHARS / 2)
      cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf('? '), window.lastIndexOf('! ')) + 1;
    if (cut < MAX_CHUNK_CHARS / 2) cut = window.lastIndexOf(' ');
    if (cut < MAX_CHUNK_CHARS / 2) cut = MAX_CHUNK_CHARS;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest !== '') pieces.push(rest);
  return pieces;
}

function prefixed(prefix: string, body: string): Chunk[] {
  return split(body).map((piece) => chunk(prefix === '' ? piece : `${prefix}\n${piece}`));
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const BULLET = /^(\s{0,3})([-*+]|\d{1,9}[.)])\s+/;
const FENCE = /^\s{0,3}(```|~~~)/;

/**
 * Chunks of a Markdown document: each top-level bullet (with its indented continuation and
 * sub-bullets) and each paragraph becomes one chunk, prefixed with its section's heading trail
 * (`Project > Conventions`). Fenced code stays with the paragraph it is in.
 */
export function chunkMarkdown(text: string): Chunk[] {
  const chunks: Chunk[] = [];
  const headings: string[] = [];
  let unit: string[] = [];
  let inFence = false;
  const flush = (): void => {
    const body = unit.join('\n').trim();
    unit = [];
    if (body !== '') chunks.push(...prefixed(headings.filter(Boolean).join(' > '), body));
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (FENCE.test(line)) {
      if (!inFence && unit.length > 0 && BULLET.test(unit[0] ?? '') && !/^\s/.test(line)) flush();
      inFence = !inFence;
      unit.push(line);
      continue;
    }
    if (inFence) {
      unit.push(line);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      flush();
      const level = (heading[1] as string).length;
      headings.length = level - 1;
      headings[level - 1] = heading[2] as string;
      continue;
    }
    if (line.trim() === '') {
      // A blank line ends a paragraph; inside a bullet it ends the item only if the next line is not indented.
      if (unit.length > 0 && !BULLET.test(unit[0] as string)) flush();
      else if (unit.length > 0) unit.push(line);
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet !== null && (bullet[1] as string).length === 0) {
      flush();
      unit.push(line);
      continue;
    }
    if (unit.length > 0 && BULLET.test(unit[0] as string) && !/^\s/.test(line) && unit.at(-1)?.trim() === '') flush();
    unit.push(line);
  }
  flush();
  return chunks;
}

function bodyOf(value: unknown): string {
  if (value === null || typeof value !== 'object') return '';
  const body = (value as { body?: unknown }).body;
  return typeof body === 'string' ? body.trim() : '';
}

/**
 * Chunks of a mirrored GitHub item (`gh --json` of an issue, pull request or discussion): the
 * title alone, the title with the body, then each comment, review and discussion reply
 * prefixed with the title.
 * Returns `undefined` when `text` is not such an item (no string `title`).
 */
export function chunkGitHubJson(text: string): Chunk[] | undefined {
  let item: unknown;
  try {
    item = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const fields = item as Record<string, unknown>;
  if (typeof fields.title !== 'string') return undefined;
  const title = fields.title.trim();
  // The title alone is a chunk too: it is the item's own summary, and a short question is nearest
  // to a short text (in a title + body chunk the body's words outweigh it).
  const chunks: Chunk[] = title === '' ? [] : [chunk(title)];
  chunks.push(...prefixed(title, bodyOf(fields)));
  for (const key of ['comments', 'reviews'] as const) {
    const list = fields[key];
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const body = bodyOf(entry);
      if (body !== '') chunks.push(...prefixed(title, body));
      const replies = (entry as { replies?: unknown } | null)?.replies;
      const nodes = Array.isArray(replies) ? replies : (replies as { nodes?: unknown } | undefined)?.nodes;
      if (Array.isArray(nodes)) {
        for (const reply of nodes) {
          const replyBody = bodyOf(reply);
          if (replyBody !== '') chunks.push(...prefixed(title, replyBody));
        }
      }
    }
  }
  return chunks;
}

/** A record (learning, episode, verified memory, rule, preference) is one chunk: its whole text. */
export function chunkRecord(text: string): Chunk {
  return chunk(text.trim().slice(0, MAX_RECORD_CHARS));
}

/**
 * Chunks of a searchable document by its path: `.json` files that are mirrored GitHub items by
 * {@link chunkGitHubJson}; everything else (Markdown, plain text, other JSON) by
 * {@link chunkMarkdown}. Duplicate texts within a document are kept once.
 */
export function chunkDocument(path: string, text: string): Chunk[] {
  const chunks = (path.toLowerCase().endsWith('.json') ? chunkGitHubJson(text) : undefined) ?? chunkMarkdown(text);
  const seen = new Set<string>();
  return chunks.filter((entry) => !seen.has(entry.hash) && seen.add(entry.hash) !== undefined);
}
