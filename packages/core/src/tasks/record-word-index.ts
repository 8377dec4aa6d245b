// Why: a repeated search over the same few thousand records (hydration on every task start)
// should touch only the records holding the query's words, not score every record again. This
// inverted index (word -> positions and counts in a newest-first list) is built once per
// unchanged listing and answers a search with the contract's exact ranking (distinct words
// found, then occurrences, then newest first) using typed arrays instead of per-record objects.
import { isUnspacedScriptTerm, tokenizeQueryDetailed } from '../search/tokenizer.js';
import type { TaskRecord, TaskRecordSearchQuery } from './record-backend.js';
import type { AnalyzedTaskRecordText } from './record-rules.js';

/** One word's postings: positions (ascending) of the records holding it, and how often each does. */
interface Postings {
  readonly positions: number[];
  readonly counts: number[];
}

/** An inverted index over a newest-first list of records. */
export interface RecordWordIndex {
  /** The records, newest first (positions refer to this list). */
  readonly records: readonly TaskRecord[];
  /** Postings by word. */
  readonly words: ReadonlyMap<string, Postings>;
}

/** Index `records` (newest first) by the words of their analysed texts. */
export function buildRecordWordIndex(
  records: readonly TaskRecord[],
  analyze: (record: TaskRecord) => AnalyzedTaskRecordText,
): RecordWordIndex {
  const words = new Map<string, Postings>();
  for (const [position, record] of records.entries()) {
    for (const [word, count] of analyze(record).words) {
      let postings = words.get(word);
      if (postings === undefined) {
        postings = { positions: [], counts: [] };
        words.set(word, postings);
      }
      postings.positions.push(position);
      postings.counts.push(count);
    }
  }
  return { records, words };
}

/**
 * Answer `query` from the index with `searchTaskRecords`' exact result, or `undefined` when the
 * index cannot (a term matched as a substring: unspaced scripts, or a query without words).
 * Assumes every indexed record has the query's repository and kind.
 */
export function searchRecordWordIndex(index: RecordWordIndex, query: TaskRecordSearchQuery): TaskRecord[] | undefined {
  const { tokens, fallback } = tokenizeQueryDetailed(query.text);
  if (tokens.length === 0 || fallback || tokens.some(isUnspacedScriptTerm)) return undefined;
  const size = index.records.length;
  const matched = new Uint8Array(size);
  const occurrences = new Uint32Array(size);
  const touched: number[] = [];
  for (const token of tokens) {
    const postings = index.words.get(token);
    if (postings === undefined) continue;
    const { positions, counts } = postings;
    for (let k = 0; k < positions.length; k += 1) {
      const position = positions[k] as number;
      if (matched[position] === 0) touched.push(position);
      matched[position] = (matched[position] as number) + 1;
      occurrences[position] = (occurrences[position] as number) + (counts[k] as number);
    }
  }
  const all = (query.match ?? 'all') === 'all';
  const prefix = query.idPrefix;
  const hits = touched.filter(
    (position) =>
      (!all || matched[position] === tokens.length) &&
      (prefix === undefined || (index.records[position] as TaskRecord).id.startsWith(prefix)),
  );
  // Best first: more distinct words, then more occurrences, then newer (a lower position).
  hits.sort(
    (a, b) =>
      (matched[b] as number) - (matched[a] as number) ||
      (occurrences[b] as number) - (occurrences[a] as number) ||
      a - b,
  );
  const limited = query.limit === undefined ? hits : hits.slice(0, query.limit);
  return limited.map((position) => index.records[position] as TaskRecord);
}
