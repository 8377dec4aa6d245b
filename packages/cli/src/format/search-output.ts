// Why: renders a search answer exactly like Sepo's `memory/search.js` (text and `--json`) so
// agents and scripts written against Sepo keep parsing repomem's output unchanged.
import { join, resolve } from 'node:path';
import type { SearchHit, SearchResponse, SearchSnippet } from '@repomem/core';

/** Sepo's score display: integers as is, fractions rounded to two decimals. */
export function formatScore(score: number): string {
  if (Number.isInteger(score)) return String(score);
  return String(Math.round(score * 100) / 100);
}

function snippetLine(snippet: SearchSnippet): string {
  return snippet.lineNumber > 0 ? `  L${snippet.lineNumber}: ${snippet.text}` : `  Path match: ${snippet.text}`;
}

function hitBlock(hit: SearchHit): string {
  const lines = [
    `\n## ${hit.path}  (score=${formatScore(hit.score)}, matches=${hit.matchCount})`,
    `Matched terms: ${hit.matchedTerms.join(', ') || '(none)'}`,
    ...hit.snippets.map(snippetLine),
  ];
  return lines.join('\n');
}

/**
 * Where the searched documents live: a memory directory (Sepo's output, with absolute file paths)
 * or another store, named by its spec (`sqlite:/abs/repomem.db`); documents of a store have no
 * file on disk, so the output names the store instead of a directory.
 */
export type SearchLocation = string | { readonly store: string };

function locationLabel(location: SearchLocation): string {
  return typeof location === 'string' ? resolve(location) : location.store;
}

/**
 * Text output: `Memory search: "<q>"  (<n> files in <abs dir>)`, a blank line, then per file
 * `## <path>  (score=…, matches=…)`, `Matched terms: …` and `  L<n>: <text>` lines, files
 * separated by a blank line; `_No matches found._` when there are none. Ends with a newline.
 */
export function formatSearchText(query: string, response: SearchResponse, location: SearchLocation): string {
  const count = response.results.length;
  const header = `Memory search: "${query}"  (${count} file${count === 1 ? '' : 's'} in ${locationLabel(location)})\n`;
  if (count === 0) return `${header}\n_No matches found._\n`;
  return `${header}${response.results.map(hitBlock).join('\n')}\n`;
}

/** One snippet of the `--json` output. */
export interface SearchJsonSnippet {
  readonly lineNumber: number;
  readonly text: string;
  readonly score: number;
  readonly matchCount: number;
  /** For JSON mirror documents: the field that matched, e.g. `comments[3].body`. */
  readonly field?: string;
}

/** One result of the `--json` output. */
export interface SearchJsonResult {
  /** Path relative to the memory directory (POSIX separators). */
  readonly path: string;
  /** Absolute path of the file on disk (memory directories only). */
  readonly absolutePath?: string;
  readonly score: number;
  readonly matchCount: number;
  readonly matchedTerms: readonly string[];
  readonly snippets: readonly SearchJsonSnippet[];
}

/**
 * The `--json` document: Sepo's shape, plus `field` on snippets of JSON documents. For a store
 * other than a directory, `store` replaces `memoryDir` and results carry no `absolutePath`.
 */
export interface SearchJson {
  readonly query: string;
  /** Absolute memory directory (memory directories only). */
  readonly memoryDir?: string;
  /** The store's spec with absolute paths (SQLite and git stores only). */
  readonly store?: string;
  readonly resultCount: number;
  readonly results: readonly SearchJsonResult[];
  /** Documents over 512 KiB that were not searched (present only when there is one). */
  readonly skipped?: SearchResponse['skipped'];
}

/** Build the `--json` document for a search answer. */
export function searchJson(query: string, response: SearchResponse, location: SearchLocation): SearchJson {
  const absoluteDir = typeof location === 'string' ? resolve(location) : undefined;
  return {
    query,
    ...(absoluteDir === undefined ? { store: locationLabel(location) } : { memoryDir: absoluteDir }),
    resultCount: response.results.length,
    results: response.results.map((hit) => ({
      path: hit.path,
      ...(absoluteDir === undefined ? {} : { absolutePath: join(absoluteDir, ...hit.path.split('/')) }),
      score: hit.score,
      matchCount: hit.matchCount,
      matchedTerms: [...hit.matchedTerms],
      snippets: hit.snippets.map((snippet) => ({
        lineNumber: snippet.lineNumber,
        text: snippet.text,
        score: snippet.score,
        matchCount: snippet.matchCount,
        ...(snippet.field === undefined ? {} : { field: snippet.field }),
      })),
    })),
    ...(response.skipped === undefined ? {} : { skipped: response.skipped }),
  };
}

/**
 * The stderr notice of a text-mode search that left documents out (over 512 KiB), one line per
 * document, or `''` when none was: stdout keeps Sepo's shape, and the omission is never silent.
 */
export function formatSkippedNotice(response: SearchResponse): string {
  const skipped = response.skipped ?? [];
  if (skipped.length === 0) return '';
  const count = skipped.length;
  const lines = skipped.map((document) => `  ${document.path} (${document.bytes} bytes)`);
  return `repomem: ${count} document${count === 1 ? '' : 's'} over 512 KiB not searched:\n${lines.join('\n')}\n`;
}

/** The `--json` text: {@link searchJson} pretty-printed with two spaces (like Sepo), newline-terminated. */
export function formatSearchJson(query: string, response: SearchResponse, location: SearchLocation): string {
  return `${JSON.stringify(searchJson(query, response, location), null, 2)}\n`;
}
