// Why: search has one home (core's `searchStore`): this store only narrows it. FTS5 names every
// document of the repository scope under the prefix that holds a query term as a word of its
// path or text (prefix terms as the start of a word), and SQL sums the per-row searchable
// lengths for the corpus figures; core reads and ranks exactly those documents, so results are
// the same as core's scan over the same documents. A query the word index cannot answer like
// core is answered `unsupported`, and core then searches the documents itself.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import {
  type CandidateTerm,
  type CorpusStatistics,
  MAX_SEARCH_DOCUMENT_BYTES,
  normalizePrefix,
  type OversizedDocument,
  RANKING,
  type SearchCandidate,
  type SearchCandidateQuery,
  type SearchCandidates,
} from '@repomem/core';
import { isWordTerm, scopedMatchExpression } from './fts-query.js';
import { prefixCondition } from './path-range.js';

/**
 * The backend score of a candidate (diagnostics only; core ranks): bm25 with the `path` column
 * weighted like core's path boost and the `scope` column not at all.
 */
const BM25 = `bm25(documents_fts, 0.0, ${RANKING.pathWeight}, 1.0)`;

function unsupported(reason: string): SearchCandidates {
  return { status: 'unsupported', reason };
}

/** The terms as given when FTS5 answers each of them like core, else why not. */
function checkTerms(terms: unknown): readonly CandidateTerm[] | string {
  if (!Array.isArray(terms) || terms.length === 0) return 'a lexical query needs at least one term';
  for (const term of terms as unknown[]) {
    const text = (term as CandidateTerm | null)?.text;
    if (typeof text !== 'string' || !isWordTerm(text)) {
      return `the term ${JSON.stringify(text)} is not a word the FTS5 index holds (core matches it itself)`;
    }
  }
  return terms as readonly CandidateTerm[];
}

/** Candidate search over one connection and repository scope, statements prepared on first use. */
export class SqliteCandidates {
  readonly #db: DatabaseSync;
  readonly #repo: string;
  readonly #scope: string;
  readonly #statements = new Map<string, StatementSync>();

  /** `scope` is the FTS5 token of `repo` (see `scopeToken`). */
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

  /** Answer a candidate query (synchronous; the caller translates SQLite errors). */
  answer(query: SearchCandidateQuery): SearchCandidates {
    const kind = (query as { kind?: unknown } | null)?.kind;
    switch (kind) {
      case 'lexical': {
        const terms = checkTerms(query.terms);
        if (typeof terms === 'string') return unsupported(terms);
        const prefix = normalizePrefix(query.prefix);
        return {
          status: 'candidates',
          candidates: this.#matches(terms, prefix),
          complete: true,
          corpus: this.corpus(prefix),
          oversized: this.#oversized(prefix),
        };
      }
      default:
        return unsupported(`the SQLite store has no index for ${JSON.stringify(kind)} queries`);
    }
  }

  /** Every document of the scope under `prefix` holding one of `terms`, best bm25 first. */
  #matches(terms: readonly CandidateTerm[], prefix: string): SearchCandidate[] {
    const condition = prefixCondition('d.path', prefix);
    const rows = this.#statement(
      `SELECT d.path AS path, d.version AS version, ${BM25} AS rank FROM documents_fts JOIN documents d ON d.id = documents_fts.rowid WHERE documents_fts MATCH :match AND d.repo = :repo AND ${condition.sql} ORDER BY rank, d.path`,
    ).all({
      match: scopedMatchExpression(this.#scope, terms),
      repo: this.#repo,
      ...condition.params,
    }) as unknown as Array<{ path: string; version: string; rank: number }>;
    // bm25 is lower-is-better; candidates carry higher-is-better scores.
    return rows.map((row) => ({ path: row.path, version: row.version, score: -Number(row.rank) }));
  }

  /** Documents of the scope under `prefix` too large for core to search (so core need not list the store). */
  #oversized(prefix: string): OversizedDocument[] {
    const condition = prefixCondition('path', prefix);
    const rows = this.#statement(
      `SELECT path, size FROM documents WHERE repo = :repo AND size > :max AND ${condition.sql}`,
    ).all({ repo: this.#repo, max: MAX_SEARCH_DOCUMENT_BYTES, ...condition.params }) as unknown as Array<{
      path: string;
      size: number;
    }>;
    return rows.map((row) => ({ path: row.path, size: Number(row.size) }));
  }

  /** Searchable documents of the scope under `prefix` and the sum of their lengths. */
  corpus(prefix: string): CorpusStatistics {
    const condition = prefixCondition('path', prefix);
    const row = this.#statement(
      `SELECT count(searchable_length) AS n, coalesce(sum(searchable_length), 0) AS total FROM documents WHERE repo = :repo AND ${condition.sql}`,
    ).get({ repo: this.#repo, ...condition.params }) as { n: number; total: number };
    return { documentCount: Number(row.n), totalLength: Number(row.total) };
  }
}
