// Why: one result shape for every search path (core's engine over documents, FTS5, AgentCore
// retrieval), mirroring Sepo's `search --json` output so existing callers keep working.

/** One matching line (or JSON field value line) of a document. */
export interface SearchSnippet {
  /** 1-based line number in the document. */
  readonly lineNumber: number;
  /** Readable text of the line, at most 220 characters. For JSON: `field.path: value`. */
  readonly text: string;
  /** For JSON documents: the field that matched, e.g. `comments[3].body`. */
  readonly field?: string;
  readonly score: number;
  /** Number of query terms matched on this line. */
  readonly matchCount: number;
}

/** One matching document. */
export interface SearchHit {
  /** Path relative to the memory root. */
  readonly path: string;
  readonly score: number;
  /** Number of distinct query terms matched in the document (path included). */
  readonly matchCount: number;
  readonly matchedTerms: readonly string[];
  readonly snippets: readonly SearchSnippet[];
}

/** Options for a query. */
export interface SearchOptions {
  /** Maximum documents returned (default 5, like Sepo). */
  readonly limit?: number;
  /** Maximum snippets per document (default 3, like Sepo). */
  readonly snippets?: number;
  /** Only search documents under this path prefix. */
  readonly prefix?: string;
}

/**
 * A document the search did not read because it is larger than 512 KiB (Sepo's limit), so the
 * caller can say so instead of silently missing it.
 */
export interface SkippedDocument {
  /** Path relative to the memory root. */
  readonly path: string;
  /** Why it was not searched. */
  readonly reason: 'too-large';
  /** Its size in bytes. */
  readonly bytes: number;
}

/** A search answer. */
export interface SearchResponse {
  readonly query: string;
  /** The tokens the query was split into. */
  readonly terms: readonly string[];
  /** Number of documents considered. */
  readonly documentCount: number;
  readonly results: readonly SearchHit[];
  /**
   * Documents in scope that were not searched (larger than 512 KiB), sorted by path; present
   * only when there is at least one.
   */
  readonly skipped?: readonly SkippedDocument[];
}
