// Why: search has one home (core's `searchStore`): this store only narrows it. The tsvector index
// names every document of the repository under the prefix that holds a query term as a word of
// its path or text (prefix terms as the start of a word) — plus any document too large to index,
// so the answer stays complete — and SQL sums the per-row searchable lengths for the corpus
// figures; core reads and ranks exactly those documents, so results equal core's own scan. A
// query the word index cannot answer like core is answered `unsupported`.
import {
  type CandidateTerm,
  type CorpusStatistics,
  MAX_SEARCH_DOCUMENT_BYTES,
  normalizePrefix,
  type OversizedDocument,
  type SearchCandidate,
  type SearchCandidateQuery,
  type SearchCandidates,
} from '@repomem/core';
import type { PostgresDatabase, Transaction } from './database.js';
import { likePrefix, MAX_INDEXED_WORD_CHARS, tsqueryLiteral } from './sql-text.js';

/** A word of core's tokenizer: letters, digits and combining marks only. */
const WORD_ONLY = /^[\p{L}\p{N}\p{M}]+$/u;
/** Scripts written without spaces, which core matches inside words. */
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/** True when the word index answers `term` like core does (a whole word, optionally as a prefix). */
export function isIndexedTerm(term: string): boolean {
  return WORD_ONLY.test(term) && !UNSPACED_SCRIPT.test(term) && Array.from(term).length < MAX_INDEXED_WORD_CHARS;
}

/** True when `term` holds a character of a script written without spaces (CJK, Thai...). */
export function isUnspacedTerm(term: string): boolean {
  return UNSPACED_SCRIPT.test(term);
}

function unsupported(reason: string): SearchCandidates {
  return { status: 'unsupported', reason };
}

function checkTerms(terms: unknown): readonly CandidateTerm[] | string {
  if (!Array.isArray(terms) || terms.length === 0) return 'a lexical query needs at least one term';
  for (const term of terms as unknown[]) {
    const text = (term as CandidateTerm | null)?.text;
    if (typeof text !== 'string' || !isIndexedTerm(text)) {
      return `the term ${JSON.stringify(text)} is not a word the tsvector index holds (core matches it itself)`;
    }
  }
  return terms as readonly CandidateTerm[];
}

/** Candidate search over one repository scope. */
export class PostgresCandidates {
  readonly #db: PostgresDatabase;
  readonly #repo: string;

  constructor(db: PostgresDatabase, repo: string) {
    this.#db = db;
    this.#repo = repo;
  }

  /** Answer a candidate query. */
  async answer(query: SearchCandidateQuery): Promise<SearchCandidates> {
    const kind = (query as { kind?: unknown } | null)?.kind;
    if (kind !== 'lexical') {
      return unsupported(`the PostgreSQL store has no index for ${JSON.stringify(kind)} queries`);
    }
    const terms = checkTerms(query.terms);
    if (typeof terms === 'string') return unsupported(terms);
    const prefix = normalizePrefix(query.prefix);
    return this.#db.read('searchCandidates()', async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const candidates = await this.#matches(tx, terms, prefix);
      const corpus = await this.#corpus(tx, prefix);
      return { status: 'candidates', candidates, complete: true, corpus, oversized: await this.#oversized(tx, prefix) };
    });
  }

  #scope(prefix: string, values: unknown[]): string {
    if (prefix === '') return '';
    values.push(likePrefix(prefix));
    return ` AND path LIKE $${values.length} ESCAPE '\\'`;
  }

  async #matches(tx: Transaction, terms: readonly CandidateTerm[], prefix: string): Promise<SearchCandidate[]> {
    const values: unknown[] = [this.#repo, tsqueryLiteral(terms, '|')];
    const scope = this.#scope(prefix, values);
    const rows = await tx.query<{ path: string; version: string; score: number }>(
      `SELECT path, version, CASE WHEN unindexed THEN 0 ELSE ts_rank(words, $2::tsquery) END AS score
       FROM ${this.#db.table('documents')}
       WHERE repo = $1 AND (words @@ $2::tsquery OR unindexed)${scope}
       ORDER BY score DESC, path`,
      values,
    );
    return rows.map((row) => ({ path: row.path, version: row.version, score: Number(row.score) }));
  }

  /** Documents under `prefix` too large for core to search (so core need not list the store). */
  async #oversized(tx: Transaction, prefix: string): Promise<OversizedDocument[]> {
    const values: unknown[] = [this.#repo, MAX_SEARCH_DOCUMENT_BYTES];
    const scope = this.#scope(prefix, values);
    const rows = await tx.query<{ path: string; size: number }>(
      `SELECT path, size FROM ${this.#db.table('documents')} WHERE repo = $1 AND size > $2${scope}`,
      values,
    );
    return rows.map((row) => ({ path: row.path, size: Number(row.size) }));
  }

  async #corpus(tx: Transaction, prefix: string): Promise<CorpusStatistics> {
    const values: unknown[] = [this.#repo];
    const scope = this.#scope(prefix, values);
    const rows = await tx.query<{ n: string; total: string }>(
      `SELECT count(searchable_length) AS n, coalesce(sum(searchable_length), 0) AS total FROM ${this.#db.table('documents')} WHERE repo = $1${scope}`,
      values,
    );
    return { documentCount: Number(rows[0]?.n ?? 0), totalLength: Number(rows[0]?.total ?? 0) };
  }
}
