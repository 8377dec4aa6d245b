// Why: native search over the FTS5 index kept by the store. FTS5 picks and orders documents
// (bm25 over a path column weighted like core's path boost and the body), restricted to the
// store's repository by a scope token inside the index, and only the few documents returned are
// re-read to build snippets with core's own engine, so snippet text, line numbers, JSON field
// paths and matched terms have exactly core's shape and rules. Queries whose terms the word index
// cannot answer like core (substring fallback, unspaced scripts) are answered by core's engine
// over this store instead, so results never depend on the backend's query syntax.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import {
  type MemoryStore,
  RANKING,
  type SearchableDocument,
  SearchEngine,
  type SearchHit,
  type SearchOptions,
  type SearchResponse,
  tokenizeQuery,
} from '@repomem/core';
import { isWordTerm, scopedMatchExpression, type TermJoin } from './fts-query.js';
import { prefixUpperBound, type ResolvedSearchOptions, resolveSearchOptions } from './search-options.js';

/** Weight of the `path` column relative to `body` in bm25 (core's path boost); `scope` weighs 0. */
export const FTS_PATH_WEIGHT = RANKING.pathWeight;

const BM25 = `bm25(documents_fts, 0.0, ${FTS_PATH_WEIGHT}, 1.0)`;
const RANK_ALL = `SELECT rowid AS id, ${BM25} AS rank FROM documents_fts WHERE documents_fts MATCH :match ORDER BY rank, rowid LIMIT :limit`;
const PREFIX_FILTER = 'd.path >= :prefix AND d.path < :upper AND substr(d.path, 1, :length) = :prefix';
const OPEN_PREFIX_FILTER = 'd.path >= :prefix AND substr(d.path, 1, :length) = :prefix';

/** Extra share of the score for a document holding the whole query as a phrase (core: `RANKING.phraseWeight`). */
const PHRASE_BONUS = RANKING.phraseWeight;

interface RankedRow {
  readonly id: number;
  readonly rank: number;
}

/**
 * Round a score for output to 6 significant digits rather than core's 3 decimals: FTS5 clamps the
 * IDF of a term found in more than half of the documents to 1e-6, and such matches must still
 * print as a positive score.
 */
function roundScore(score: number): number {
  return Number(score.toPrecision(6));
}

/** Search over one connection and repository scope, with its statements prepared on first use. */
export class SqliteSearch {
  readonly #db: DatabaseSync;
  readonly #repo: string;
  readonly #scope: string;
  readonly #engine = new SearchEngine();
  readonly #statements = new Map<string, StatementSync>();

  constructor(db: DatabaseSync, repo: string, scope: string) {
    this.#db = db;
    this.#repo = repo;
    this.#scope = scope;
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #prefixClause(prefix: string): { sql: string; params: Record<string, string | number> } {
    const upper = prefixUpperBound(prefix);
    const length = [...prefix].length;
    if (upper === undefined) return { sql: OPEN_PREFIX_FILTER, params: { prefix, length } };
    return { sql: PREFIX_FILTER, params: { prefix, upper, length } };
  }

  /** Number of searchable (indexed) documents of the scope under `prefix`. */
  countIndexed(prefix: string): number {
    if (prefix === '') {
      const row = this.#statement('SELECT indexed_count AS n FROM repos WHERE repo = ?').get(this.#repo) as
        | { n: number }
        | undefined;
      return Number(row?.n ?? 0);
    }
    const clause = this.#prefixClause(prefix);
    const row = this.#statement(
      `SELECT count(*) AS n FROM documents d WHERE d.repo = :repo AND d.indexed = 1 AND ${clause.sql}`,
    ).get({ repo: this.#repo, ...clause.params }) as { n: number };
    return Number(row.n);
  }

  /** Search the scope; `store` is handed to core's engine for the queries FTS5 does not answer. */
  async search(store: MemoryStore, query: string, options: SearchOptions | undefined): Promise<SearchResponse> {
    const resolved = resolveSearchOptions(options);
    const text = typeof query === 'string' ? query : String(query);
    const terms = tokenizeQuery(text);
    if (terms.length > 0 && !terms.every(isWordTerm)) return this.#engine.search(store, text, options);
    const documentCount = this.countIndexed(resolved.prefix);
    if (terms.length === 0) return { query: text, terms, documentCount, results: [] };
    return { query: text, terms, documentCount, results: this.#rank(text, terms, resolved) };
  }

  #rankedRows(terms: readonly string[], join: TermJoin, limit: number, prefix: string): RankedRow[] {
    const match = scopedMatchExpression(this.#scope, terms, join);
    if (prefix === '') return this.#statement(RANK_ALL).all({ match, limit }) as unknown as RankedRow[];
    const clause = this.#prefixClause(prefix);
    return this.#statement(
      `SELECT d.id AS id, ${BM25} AS rank FROM documents_fts JOIN documents d ON d.id = documents_fts.rowid WHERE documents_fts MATCH :match AND d.repo = :repo AND ${clause.sql} ORDER BY rank, d.id LIMIT :limit`,
    ).all({ match, repo: this.#repo, limit, ...clause.params }) as unknown as RankedRow[];
  }

  /**
   * Candidates in fetch order, each with whether it holds the query as a phrase. Tiers are
   * fetched until `limit` documents are found: documents holding the whole query as a phrase,
   * then documents matching every term, then documents matching any term (bm25 order within each).
   * Like core's phrase bonus and coordination factor, this prefers documents holding the whole
   * query, and the narrow first queries are the cheap ones for FTS5.
   */
  #candidates(terms: readonly string[], options: ResolvedSearchOptions): Array<RankedRow & { phrase: boolean }> {
    const tiers: TermJoin[] = terms.length === 1 ? ['OR'] : ['PHRASE', 'AND', 'OR'];
    const found = new Map<number, RankedRow & { phrase: boolean }>();
    for (const join of tiers) {
      const rows = this.#rankedRows(terms, join, options.limit + found.size, options.prefix);
      for (const row of rows) {
        if (found.size >= options.limit) break;
        if (!found.has(row.id)) found.set(row.id, { ...row, phrase: join === 'PHRASE' });
      }
      if (found.size >= options.limit) break;
    }
    return [...found.values()];
  }

  #rank(query: string, terms: readonly string[], options: ResolvedSearchOptions): SearchHit[] {
    const ranked: Array<RankedRow & { phrase: boolean } & SearchableDocument> = [];
    const read = this.#statement(
      'SELECT d.path AS path, c.content AS content FROM documents d JOIN document_contents c ON c.id = d.id WHERE d.id = ? AND d.repo = ?',
    );
    for (const row of this.#candidates(terms, options)) {
      const document = read.get(row.id, this.#repo) as { path: string; content: Uint8Array } | undefined;
      if (document !== undefined) ranked.push({ ...row, path: document.path, content: document.content });
    }
    if (ranked.length === 0) return [];
    // Core's engine builds the snippets and matched terms of exactly these documents.
    const detailed = this.#engine.searchDocuments(ranked, query, { limit: ranked.length, snippets: options.snippets });
    const byPath = new Map(detailed.results.map((hit) => [hit.path, hit]));
    const hits = ranked.map((row, order) => {
      const hit = byPath.get(row.path);
      const matchedTerms = hit?.matchedTerms ?? [];
      // bm25, scaled by the share of query terms matched (core's coordination), with a bonus for
      // holding the whole query as a phrase (core adds half the terms' IDF; here half the score).
      const coordinated = (-row.rank * Math.max(matchedTerms.length, 1)) / terms.length;
      const score = row.phrase ? coordinated * (1 + PHRASE_BONUS) : coordinated;
      return {
        order,
        hit: {
          path: row.path,
          score: roundScore(score),
          matchCount: matchedTerms.length,
          matchedTerms,
          snippets: hit?.snippets ?? [],
        },
      };
    });
    hits.sort((a, b) => b.hit.score - a.hit.score || a.order - b.order);
    return hits.map((entry) => entry.hit);
  }
}
