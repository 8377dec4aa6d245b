// Why: a store with its own index (FTS5, tsvector, AgentCore retrieval, later vectors) should
// narrow a search without ranking it: it names candidate documents and reports corpus figures,
// and core ranks them and builds the snippets with one formula, so a query ranks the same on
// every store. New query kinds (vectors) arrive as new members of the union; a store answers
// `unsupported` for any kind or shape it cannot answer exactly, and core falls back to reading
// the documents itself.

/** One query term as core compiled it. */
export interface CandidateTerm {
  /** Lower-case term text (core's tokenizer). */
  readonly text: string;
  /** Also matches words that start with it (at half weight), e.g. `test` finds `tests`. */
  readonly prefix: boolean;
}

/**
 * A full-text question: every searchable document under `prefix` holding at least one term as a
 * whole word of its text or path (or, for prefix terms, as the start of a word), where words are
 * split as core's `splitWords` splits them.
 */
export interface LexicalCandidateQuery {
  readonly kind: 'lexical';
  /** The query's word terms (never empty). */
  readonly terms: readonly CandidateTerm[];
  /** Normalised path prefix (`''` for the whole store). */
  readonly prefix: string;
}

/** What core may ask a store's index. Vector queries will be added as a second member. */
export type SearchCandidateQuery = LexicalCandidateQuery;

/** A candidate document. */
export interface SearchCandidate {
  /** Document path. */
  readonly path: string;
  /** The backend's own score (diagnostics, and ordering for incomplete answers); higher is better. */
  readonly score: number;
  /**
   * The document's current version, when the index knows it cheaply. Core then reuses an analysis
   * it already holds for that version instead of reading the document again.
   */
  readonly version?: string;
}

/** Figures about all searchable documents under the query's prefix, used by core's ranking. */
export interface CorpusStatistics {
  /** Searchable documents (text, not oversized, searchable path). */
  readonly documentCount: number;
  /** Sum of their lengths as core's `searchableLength` counts them. */
  readonly totalLength: number;
}

/** A document too large for core to search. */
export interface OversizedDocument {
  /** Document path. */
  readonly path: string;
  /** Size in bytes. */
  readonly size: number;
}

/** A store's answer. */
export type SearchCandidates =
  | {
      readonly status: 'candidates';
      /**
       * Every document the query matches when `complete`, in any order; otherwise the backend's
       * best matches, best first.
       */
      readonly candidates: readonly SearchCandidate[];
      /** `true` when no matching document is left out (ranking is then exactly core's). */
      readonly complete: boolean;
      readonly corpus: CorpusStatistics;
      /**
       * Optional: every document under the query's prefix that the index leaves out because it
       * is larger than core searches (512 KiB), with its size in bytes, when the store knows them
       * cheaply. Core names them in the response's `skipped`; without this member it lists the
       * store to find them.
       */
      readonly oversized?: readonly OversizedDocument[];
    }
  | {
      /** The index cannot answer this query exactly; core searches the documents itself. */
      readonly status: 'unsupported';
      readonly reason: string;
    };
