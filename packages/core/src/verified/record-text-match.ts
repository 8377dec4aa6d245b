// Why: record search must treat every query character as text (FTS operators, quotes and
// wildcards included) and agree with core's tokenizer, so in-memory backends match the way the
// SQLite backend's quoted FTS5 terms do: every query word must be a word of the record.
import { isUnspacedScriptTerm, normalizePhrase, splitWords, tokenizeQueryDetailed } from '../search/tokenizer.js';
import type { VerifiedMemory } from './record.js';

function searchableText(record: VerifiedMemory): string {
  return [record.subject, record.fact, record.reason ?? '', record.scope ?? ''].join('\n');
}

function termMatches(term: string, fallback: boolean, words: ReadonlySet<string>, phrase: string): boolean {
  return fallback || isUnspacedScriptTerm(term) ? phrase.includes(term) : words.has(term);
}

/**
 * True when every term of `query` (core's query tokenizer: lowercased words of 2+ characters or
 * digits) is a word of the record's subject, fact, reason or scope. Terms in unspaced scripts
 * (CJK, Thai) and a query with no word at all (e.g. `c++`) match as substrings. A query with no
 * term (`"`, `*`, `-`) matches nothing.
 */
export function matchRecordText(record: VerifiedMemory, query: string): boolean {
  const { tokens, fallback } = tokenizeQueryDetailed(query);
  if (tokens.length === 0) return false;
  const text = searchableText(record);
  const words = new Set(splitWords(text));
  const phrase = normalizePhrase(text);
  return tokens.every((term) => termMatches(term, fallback, words, phrase));
}

/** Relevance of a matching record: occurrences of the query terms, subject words counting triple. */
export function scoreRecordText(record: VerifiedMemory, query: string): number {
  const { tokens } = tokenizeQueryDetailed(query);
  const terms = new Set(tokens);
  let score = 0;
  for (const word of splitWords(record.subject)) if (terms.has(word)) score += 3;
  for (const word of splitWords([record.fact, record.reason ?? '', record.scope ?? ''].join('\n'))) {
    if (terms.has(word)) score += 1;
  }
  return score;
}
