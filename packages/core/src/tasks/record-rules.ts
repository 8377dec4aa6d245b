// Why: the argument checks, the newest-first order and the plain-word search of the task-record
// contract, written once so the document backend and every native backend (which may apply them
// to the candidates their own index returns) validate, match and order records identically.
import { isRepoSlug } from '../envelope/fields.js';
import { RepomemError } from '../errors.js';
import { assertQueryLength, assertQueryTerms } from '../search/query-limits.js';
import { isUnspacedScriptTerm, normalizePhrase, splitWords, tokenizeQueryDetailed } from '../search/tokenizer.js';
import {
  TASK_RECORD_KINDS,
  type TaskRecord,
  TaskRecordIdSchema,
  type TaskRecordKind,
  type TaskRecordMatch,
  type TaskRecordQuery,
  TaskRecordSchema,
  type TaskRecordSearchQuery,
  type TaskRecordWrite,
} from './record-backend.js';

function invalid(message: string, details?: Record<string, unknown>): RepomemError {
  return new RepomemError('INVALID_ARGUMENT', message, details === undefined ? {} : { details });
}

function zodProblem(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

/** Throw `INVALID_ARGUMENT` unless `repo` is an `owner/name` slug. */
export function assertTaskRecordRepo(repo: unknown): asserts repo is string {
  if (!isRepoSlug(repo)) throw invalid(`repo must be "owner/name", got ${JSON.stringify(repo)}`, { repo });
}

/** Throw `INVALID_ARGUMENT` unless `kind` is one of {@link TASK_RECORD_KINDS}. */
export function assertTaskRecordKind(kind: unknown): asserts kind is TaskRecordKind {
  if (typeof kind !== 'string' || !(TASK_RECORD_KINDS as readonly string[]).includes(kind)) {
    throw invalid(`kind must be one of ${TASK_RECORD_KINDS.join(', ')}, got ${JSON.stringify(kind)}`, { kind });
  }
}

/** Throw `INVALID_ARGUMENT` unless `id` satisfies {@link TaskRecordIdSchema}. */
export function assertTaskRecordId(id: unknown): asserts id is string {
  const parsed = TaskRecordIdSchema.safeParse(id);
  if (!parsed.success) throw invalid(`invalid record id ${JSON.stringify(id)}: ${zodProblem(parsed.error)}`, { id });
}

/** Throw `INVALID_ARGUMENT` unless the query's repo, kind, `idPrefix` and `limit` are valid. */
export function assertTaskRecordQuery(query: TaskRecordQuery): void {
  if (query === null || typeof query !== 'object') throw invalid('a record query must be an object');
  assertTaskRecordRepo(query.repo);
  assertTaskRecordKind(query.kind);
  const { idPrefix, limit } = query;
  if (idPrefix !== undefined && (typeof idPrefix !== 'string' || !/^[A-Za-z0-9._:@/-]*$/.test(idPrefix))) {
    throw invalid(`idPrefix may hold only letters, digits and . _ : @ / -, got ${JSON.stringify(idPrefix)}`);
  }
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0)) {
    throw invalid(`limit must be a non-negative integer, got ${String(limit)}`);
  }
}

/** Throw `INVALID_ARGUMENT` unless a search query (text length and words, `match`) is valid. */
export function assertTaskRecordSearch(query: TaskRecordSearchQuery): void {
  assertTaskRecordQuery(query);
  if (typeof query.text !== 'string') throw invalid('search text must be a string');
  assertQueryLength(query.text);
  assertQueryTerms(tokenizeQueryDetailed(query.text).tokens);
  if (query.match !== undefined && query.match !== 'all' && query.match !== 'any') {
    throw invalid(`match must be "all" or "any", got ${JSON.stringify(query.match)}`);
  }
}

/**
 * Validate the writes of one `apply`: each record against {@link TaskRecordSchema}, its
 * `expectedRevision` (`null` or a positive integer), its `revision` (`expectedRevision + 1`, 1
 * when creating), and no record written twice. Returns the parsed records; throws `INVALID_ARGUMENT`.
 */
export function validateTaskRecordWrites(writes: readonly TaskRecordWrite[]): TaskRecord[] {
  if (!Array.isArray(writes)) throw invalid('apply expects an array of writes');
  const seen = new Set<string>();
  return writes.map((write, index) => {
    if (write === null || typeof write !== 'object') throw invalid(`write ${index} is not an object`);
    const parsed = TaskRecordSchema.safeParse(write.record);
    if (!parsed.success) throw invalid(`invalid task record (write ${index}): ${zodProblem(parsed.error)}`);
    const record = parsed.data;
    const expected = write.expectedRevision;
    if (expected !== null && (typeof expected !== 'number' || !Number.isSafeInteger(expected) || expected < 1)) {
      throw invalid(`expectedRevision must be null or a positive integer (write ${index})`);
    }
    if (record.revision !== (expected ?? 0) + 1) {
      throw invalid(
        `record ${record.kind}/${record.id} has revision ${record.revision}, expected ${(expected ?? 0) + 1} (expectedRevision + 1)`,
      );
    }
    const key = JSON.stringify([record.repo, record.kind, record.id]);
    if (seen.has(key)) throw invalid(`record ${record.kind}/${record.id} is written twice in one apply`);
    seen.add(key);
    return record;
  });
}

/** Order: `updated_at` descending, then `id` descending (code-unit order); negative when `a` comes first. */
export function compareTaskRecordsNewestFirst(a: TaskRecord, b: TaskRecord): number {
  return Date.parse(b.updated_at) - Date.parse(a.updated_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** Order of two (time, id) keys as {@link compareTaskRecordsNewestFirst}. */
function compareKeys(aMs: number, aId: string, bMs: number, bId: string): number {
  return bMs - aMs || (aId < bId ? 1 : aId > bId ? -1 : 0);
}

/** `records` sorted newest first (each timestamp parsed once, not once per comparison). */
export function sortTaskRecordsNewestFirst(records: readonly TaskRecord[]): TaskRecord[] {
  const keyed = records.map((record) => ({ record, ms: Date.parse(record.updated_at) }));
  keyed.sort((a, b) => compareKeys(a.ms, a.record.id, b.ms, b.record.id));
  return keyed.map((entry) => entry.record);
}

/**
 * Apply a {@link TaskRecordQuery} to `records` (any order in, any repositories and kinds): this
 * repository and kind, the id prefix, newest first, the limit. With `sorted`, `records` are
 * already newest first and only filtered.
 */
export function selectTaskRecords(records: Iterable<TaskRecord>, query: TaskRecordQuery, sorted = false): TaskRecord[] {
  const selected: TaskRecord[] = [];
  const limit = query.limit ?? Number.POSITIVE_INFINITY;
  for (const record of records) {
    if (record.repo !== query.repo || record.kind !== query.kind) continue;
    if (query.idPrefix !== undefined && !record.id.startsWith(query.idPrefix)) continue;
    selected.push(record);
    if (sorted && selected.length >= limit) break;
  }
  const ordered = sorted ? selected : sortTaskRecordsNewestFirst(selected);
  return query.limit === undefined ? ordered : ordered.slice(0, query.limit);
}

/** How well a record's text matches a query: 0 when it does not match. */
export interface TaskRecordTextScore {
  /** Distinct query words found in the text. */
  readonly matched: number;
  /** Occurrences of query words in the text (repeats count). */
  readonly occurrences: number;
}

/** A record text prepared for scoring (cache it by record revision to score many queries). */
export interface AnalyzedTaskRecordText {
  /** Each lowercased word of the text and how often it occurs. */
  readonly words: ReadonlyMap<string, number>;
  /** The text lowercased with whitespace collapsed (substring matches). */
  readonly phrase: string;
}

/** Prepare `text` for {@link scoreTaskRecordText}. */
export function analyzeTaskRecordText(text: string): AnalyzedTaskRecordText {
  const words = new Map<string, number>();
  for (const word of splitWords(text)) words.set(word, (words.get(word) ?? 0) + 1);
  return { words, phrase: normalizePhrase(text) };
}

/** Query terms with their match mode: whole word, or substring (unspaced scripts, the fallback). */
interface PreparedTerm {
  readonly term: string;
  readonly substring: boolean;
}

function prepareTerms(tokens: readonly string[], fallback: boolean): PreparedTerm[] {
  return tokens.map((term) => ({ term, substring: fallback || isUnspacedScriptTerm(term) }));
}

function scorePrepared(text: AnalyzedTaskRecordText, terms: readonly PreparedTerm[]): TaskRecordTextScore {
  let matched = 0;
  let occurrences = 0;
  for (const { term, substring } of terms) {
    const count = substring ? (text.phrase.includes(term) ? 1 : 0) : (text.words.get(term) ?? 0);
    if (count > 0) {
      matched += 1;
      occurrences += count;
    }
  }
  return { matched, occurrences };
}

function scoreAnalyzed(
  text: AnalyzedTaskRecordText,
  tokens: readonly string[],
  fallback: boolean,
): TaskRecordTextScore {
  return scorePrepared(text, prepareTerms(tokens, fallback));
}

/**
 * Score a record text against `query` (core's query tokenizer). A word matches a whole word of
 * the text (lowercased); words in unspaced scripts (CJK, Thai) and a query with no word at all
 * (`c++`) match as substrings. A query with no word (`"`, `*`, `-`) matches nothing.
 */
export function scoreTaskRecordText(text: string | AnalyzedTaskRecordText, query: string): TaskRecordTextScore {
  const { tokens, fallback } = tokenizeQueryDetailed(query);
  if (tokens.length === 0) return { matched: 0, occurrences: 0 };
  return scoreAnalyzed(typeof text === 'string' ? analyzeTaskRecordText(text) : text, tokens, fallback);
}

/** True when `text` holds every word of `query` (`all`) or at least one (`any`); see {@link scoreTaskRecordText}. */
export function matchTaskRecordText(
  text: string | AnalyzedTaskRecordText,
  query: string,
  match: TaskRecordMatch = 'all',
): boolean {
  const terms = tokenizeQueryDetailed(query).tokens.length;
  if (terms === 0) return false;
  const { matched } = scoreTaskRecordText(text, query);
  return match === 'all' ? matched === terms : matched > 0;
}

interface Scored {
  readonly record: TaskRecord;
  readonly matched: number;
  readonly occurrences: number;
  /** Newer first: the update time in ms, or minus the input position when the input is sorted. */
  readonly recency: number;
}

function compareScored(a: Scored, b: Scored): number {
  return (
    b.matched - a.matched ||
    b.occurrences - a.occurrences ||
    b.recency - a.recency ||
    (a.record.id < b.record.id ? 1 : a.record.id > b.record.id ? -1 : 0)
  );
}

/** The best `limit` of `items` in order (a bounded insertion for small limits, else a full sort). */
function best(items: Scored[], limit: number | undefined): Scored[] {
  if (limit === 0) return [];
  if (limit === undefined || limit > 200 || items.length <= limit) return items.sort(compareScored).slice(0, limit);
  const top: Scored[] = [];
  for (const item of items) {
    if (top.length === limit && compareScored(item, top[top.length - 1] as Scored) >= 0) continue;
    let index = top.length;
    while (index > 0 && compareScored(item, top[index - 1] as Scored) < 0) index -= 1;
    top.splice(index, 0, item);
    if (top.length > limit) top.pop();
  }
  return top;
}

/**
 * Run a search over `records` in memory: the query's repository, kind and id prefix, the
 * matching ones best first (distinct words found, then occurrences, then newest first), limited.
 * `analyze` may return a cached analysis of each record's text; with `sorted`, `records` come
 * newest first already (their timestamps are then not parsed).
 */
export function searchTaskRecords(
  records: Iterable<TaskRecord>,
  query: TaskRecordSearchQuery,
  analyze: (record: TaskRecord) => AnalyzedTaskRecordText = (record) => analyzeTaskRecordText(record.text),
  sorted = false,
): TaskRecord[] {
  const { tokens, fallback } = tokenizeQueryDetailed(query.text);
  if (tokens.length === 0) return [];
  const terms = prepareTerms(tokens, fallback);
  const all = (query.match ?? 'all') === 'all';
  const scored: Scored[] = [];
  let position = 0;
  for (const record of records) {
    position += 1;
    if (record.repo !== query.repo || record.kind !== query.kind) continue;
    if (query.idPrefix !== undefined && !record.id.startsWith(query.idPrefix)) continue;
    const score = scorePrepared(analyze(record), terms);
    if (all ? score.matched === tokens.length : score.matched > 0) {
      scored.push({
        record,
        matched: score.matched,
        occurrences: score.occurrences,
        recency: sorted ? -position : Date.parse(record.updated_at),
      });
    }
  }
  return best(scored, query.limit).map((entry) => entry.record);
}
