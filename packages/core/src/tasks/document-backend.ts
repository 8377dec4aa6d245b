// Why: task memory must run on every store, not only those with native records. This backend
// keeps each task record as one JSON document on any MemoryStore and turns the store's
// per-document compare-and-swap into the record-level compare-and-swap of `apply`.
import { RepomemError } from '../errors.js';
import { RESERVED_DOCUMENT_PREFIX } from '../search/document-filter.js';
import type { DocumentEntry, MemoryStore, StoredDocument, WriteOperation } from '../store/contract.js';
import { normalizeDocumentPath } from '../store/paths.js';
import {
  type SkippedTaskRecord,
  type TaskRecord,
  type TaskRecordApplyResult,
  type TaskRecordBackend,
  type TaskRecordConflict,
  type TaskRecordKind,
  type TaskRecordQuery,
  TaskRecordSchema,
  type TaskRecordSearchQuery,
  type TaskRecordWrite,
} from './record-backend.js';
import { recordDirectory, recordFileName } from './record-paths.js';
import {
  type AnalyzedTaskRecordText,
  analyzeTaskRecordText,
  assertTaskRecordId,
  assertTaskRecordKind,
  assertTaskRecordQuery,
  assertTaskRecordRepo,
  assertTaskRecordSearch,
  searchTaskRecords,
  selectTaskRecords,
  validateTaskRecordWrites,
} from './record-rules.js';
import { buildRecordWordIndex, type RecordWordIndex, searchRecordWordIndex } from './record-word-index.js';

/** Default document prefix of {@link createDocumentTaskRecordBackend}. */
export const DEFAULT_TASK_RECORD_PREFIX = '.repomem/tasks';

/** Options of {@link createDocumentTaskRecordBackend}. */
export interface DocumentTaskRecordBackendOptions {
  /**
   * Directory (document path prefix) holding the records (default {@link DEFAULT_TASK_RECORD_PREFIX}).
   * Must lie under `.repomem/`, which document search never reads, so task records never come
   * back from a document search.
   */
  readonly prefix?: string;
  /** Most attempts of one `apply` when the store reports a concurrent change (default 50). */
  readonly maxAttempts?: number;
  /**
   * Skip listing a kind again while the store's `revision()` is unchanged since the last scan
   * (`auto`, the default: only while `revision()` costs at most about a listing of one kind (1.5x
   * + 1 ms, moving averages), as on SQLite, git and network stores; not on a large directory
   * store, whose revision hashes the whole tree).
   */
  readonly revisionShortcut?: 'auto' | boolean;
}

interface CachedRecord {
  readonly version: string;
  readonly record: TaskRecord;
  analysis?: AnalyzedTaskRecordText;
}

/** One scan of a repository's kind: its records newest first, and the store revision before it. */
interface Scan {
  readonly revision: string | undefined;
  readonly entries: readonly CachedRecord[];
  readonly records: readonly TaskRecord[];
  /** Queries answered from this scan; the word index is built from the second on. */
  uses: number;
  index?: RecordWordIndex;
}

/** More uncached documents than this in one scan are read with `readAll` when the store has it. */
const READ_ALL_THRESHOLD = 16;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

function invalidDocument(path: string, problem: string, cause?: unknown): RepomemError {
  return new RepomemError('INVALID_DOCUMENT', `task record document ${path} is invalid: ${problem}`, {
    details: { path, problem },
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * A {@link TaskRecordBackend} on any {@link MemoryStore}.
 *
 * Layout: `<prefix>/<kind>/<owner>/<name>/<id>.json` (default prefix `.repomem/tasks`, which
 * document search skips), one pretty-printed record per document, validated with
 * `TaskRecordSchema` on every read: a document that does not hold a valid record of its place (not
 * JSON, truncated, another repository's record copied in) is left out of `get`, `list` and
 * `search` and reported once through `drainSkippedRecords`; writing its id again replaces it.
 * Owner, name and id are escaped into safe, case-distinct path segments (`escapeRecordSegment`).
 *
 * `apply` reads each record's current document, checks its `revision`, then writes every record
 * as ONE store batch whose expected versions are the versions just read: a concurrent writer
 * turns into a retry (the store reported a conflict) or a returned {@link TaskRecordConflict}
 * (the revision changed). All-or-nothing across several records holds exactly as far as the
 * store's batches do: fully when `capabilities.atomicBatch` (SQLite, git, memory); on a store
 * without atomic batches a crash in the middle of a batch may leave part of it written, though
 * a compare-and-swap conflict still writes nothing (stores check every precondition first).
 *
 * Queries list one repository's records of one kind (parsed documents are cached by version, so
 * a repeated query costs one `list` plus reads of what changed, with one `readAll` or `getMany`
 * when the store has them, else in parallel), then filter, order and search in memory with the
 * contract's reference functions.
 * `close()` does not close `store` (the caller owns it).
 */
export function createDocumentTaskRecordBackend(
  store: MemoryStore,
  options: DocumentTaskRecordBackendOptions = {},
): TaskRecordBackend {
  if (store === null || typeof store !== 'object' || typeof store.write !== 'function') {
    throw new RepomemError('INVALID_ARGUMENT', 'createDocumentTaskRecordBackend expects a MemoryStore');
  }
  const prefix = normalizeDocumentPath(options.prefix ?? DEFAULT_TASK_RECORD_PREFIX);
  if (!`${prefix}/`.startsWith(RESERVED_DOCUMENT_PREFIX) || `${prefix}/` === RESERVED_DOCUMENT_PREFIX) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `task-record prefix must be a directory under ${RESERVED_DOCUMENT_PREFIX} (which document search skips), got ${JSON.stringify(options.prefix)}`,
      { details: { prefix: options.prefix } },
    );
  }
  const maxAttempts = options.maxAttempts ?? 50;
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1) {
    throw new RepomemError('INVALID_ARGUMENT', `maxAttempts must be a positive integer, got ${String(maxAttempts)}`);
  }
  const cache = new Map<string, CachedRecord>();
  const entryOf = new WeakMap<TaskRecord, CachedRecord>();
  const scans = new Map<string, Scan>();
  const scanning = new Map<string, { readonly generation: number; readonly work: Promise<Scan> }>();
  /** Bumped by every write of this backend: a scan started before it is not shared after it. */
  let generation = 0;
  /** Milliseconds of the last `revision()` and `list()` calls, to decide the shortcut (`auto`). */
  const cost = { revision: Number.NaN, list: Number.NaN };
  let closed = false;
  const shortcut = options.revisionShortcut ?? 'auto';
  const useRevision = (): boolean =>
    shortcut === true ||
    (shortcut === 'auto' &&
      (Number.isNaN(cost.revision) || Number.isNaN(cost.list) || cost.revision <= cost.list * 1.5 + 1));
  /** Moving average of a cost in ms (one slow call under load does not flip the decision). */
  const average = (previous: number, sample: number): number =>
    Number.isNaN(previous) ? sample : 0.7 * previous + 0.3 * sample;

  const recordPath = (repo: string, kind: TaskRecordKind, id: string): string =>
    `${recordDirectory(prefix, kind, repo)}/${recordFileName(id)}`;

  const ensureOpen = (): void => {
    if (closed) throw new RepomemError('STORE_CLOSED', 'the documents task-record backend is closed');
  };

  /** Unreadable documents met since the last drain, and every one ever reported (path and version). */
  const skipped: SkippedTaskRecord[] = [];
  const reported = new Set<string>();

  /**
   * The record of `document`, or `undefined` when it cannot be read (noted once per path and
   * version for {@link TaskRecordBackend.drainSkippedRecords}): one bad document never hides the rest.
   */
  function readable(
    document: StoredDocument,
    repo: string,
    kind: TaskRecordKind,
    id?: string,
  ): CachedRecord | undefined {
    try {
      return parseRecord(document, repo, kind, id);
    } catch (error) {
      if (!(error instanceof RepomemError) || error.code !== 'INVALID_DOCUMENT') throw error;
      const key = `${document.path}\u0000${document.version}`;
      if (!reported.has(key)) {
        reported.add(key);
        const problem = (error.details as { problem?: unknown } | undefined)?.problem;
        skipped.push({
          repo,
          kind,
          location: document.path,
          problem: typeof problem === 'string' ? problem : error.message,
        });
      }
      return undefined;
    }
  }

  function parseRecord(document: StoredDocument, repo: string, kind: TaskRecordKind, id?: string): CachedRecord {
    const cached = cache.get(document.path);
    if (cached !== undefined && cached.version === document.version) return cached;
    let json: unknown;
    try {
      json = JSON.parse(decoder.decode(document.content));
    } catch (error) {
      throw invalidDocument(document.path, `not JSON (${(error as Error).message})`, error);
    }
    const parsed = TaskRecordSchema.safeParse(json);
    if (!parsed.success) {
      throw invalidDocument(document.path, parsed.error.issues.map((issue) => issue.message).join('; '));
    }
    const record = parsed.data;
    if (
      record.repo !== repo ||
      record.kind !== kind ||
      (id !== undefined && record.id !== id) ||
      recordPath(repo, kind, record.id) !== document.path
    ) {
      throw invalidDocument(
        document.path,
        `holds ${record.kind} ${record.id} of ${record.repo}, which does not belong here`,
      );
    }
    const entry: CachedRecord = { version: document.version, record };
    cache.set(document.path, entry);
    entryOf.set(record, entry);
    return entry;
  }

  async function readRecord(
    repo: string,
    kind: TaskRecordKind,
    id: string,
  ): Promise<{ document?: StoredDocument; record?: TaskRecord }> {
    const document = await store.get(recordPath(repo, kind, id));
    if (document === undefined) return {};
    // An unreadable document counts as absent: writing the id again replaces it.
    const entry = readable(document, repo, kind, id);
    return entry === undefined ? { document } : { document, record: entry.record };
  }

  /** List and read one repository's kind (cached by version; what changed is read at once), newest first. */
  async function listAndRead(repo: string, kind: TaskRecordKind): Promise<CachedRecord[]> {
    const directory = `${recordDirectory(prefix, kind, repo)}/`;
    const started = performance.now();
    const listed = await store.list(directory);
    cost.list = average(cost.list, performance.now() - started);
    const entries = listed.filter(
      (entry) => entry.path.endsWith('.json') && !entry.path.slice(directory.length).includes('/'),
    );
    const found = new Map<string, CachedRecord>();
    const missing: DocumentEntry[] = [];
    for (const entry of entries) {
      const cached = cache.get(entry.path);
      if (cached !== undefined && cached.version === entry.version) found.set(entry.path, cached);
      else missing.push(entry);
    }
    if (missing.length > READ_ALL_THRESHOLD && store.readAll !== undefined) {
      const wanted = new Set(missing.map((entry) => entry.path));
      const streamed: StoredDocument[] = [];
      const returned = await store.readAll({
        prefix: directory,
        accept: (path) => wanted.has(path),
        each: (document) => streamed.push(document),
      });
      for (const document of [...streamed, ...returned]) {
        const entry = wanted.has(document.path) ? readable(document, repo, kind) : undefined;
        if (entry !== undefined) found.set(document.path, entry);
      }
    } else {
      const paths = missing.map((entry) => entry.path);
      const documents =
        store.getMany !== undefined && paths.length > 1
          ? await store.getMany(paths)
          : await Promise.all(paths.map((path) => store.get(path)));
      for (const document of documents) {
        const entry = document === undefined ? undefined : readable(document, repo, kind);
        if (entry !== undefined && document !== undefined) found.set(document.path, entry);
      }
    }
    const keyed = [...found.values()].map((entry) => ({ entry, ms: Date.parse(entry.record.updated_at) }));
    keyed.sort(
      (a, b) =>
        b.ms - a.ms || (a.entry.record.id < b.entry.record.id ? 1 : a.entry.record.id > b.entry.record.id ? -1 : 0),
    );
    return keyed.map((item) => item.entry);
  }

  /**
   * Every record of one repository and kind, newest first. Concurrent scans of the same kind
   * share one listing; with the revision shortcut, an unchanged store revision reuses the last scan.
   */
  function scan(repo: string, kind: TaskRecordKind): Promise<Scan> {
    const key = `${kind}\u0000${repo}`;
    const running = scanning.get(key);
    if (running !== undefined && running.generation === generation) return running.work;
    const work = (async () => {
      let revision: string | undefined;
      if (useRevision()) {
        const started = performance.now();
        revision = await store.revision();
        cost.revision = average(cost.revision, performance.now() - started);
        const last = scans.get(key);
        if (last !== undefined && last.revision === revision) return last;
      }
      const entries = await listAndRead(repo, kind);
      const fresh: Scan = { revision, entries, records: entries.map((entry) => entry.record), uses: 0 };
      scans.set(key, fresh);
      return fresh;
    })();
    const entry = { generation, work };
    scanning.set(key, entry);
    const done = (): void => {
      if (scanning.get(key) === entry) scanning.delete(key);
    };
    work.then(done, done);
    return work;
  }

  async function apply(writes: readonly TaskRecordWrite[]): Promise<TaskRecordApplyResult> {
    ensureOpen();
    const records = validateTaskRecordWrites(writes);
    if (records.length === 0) return { ok: true };
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const current = await Promise.all(records.map((record) => readRecord(record.repo, record.kind, record.id)));
      const conflicts: TaskRecordConflict[] = [];
      const operations: WriteOperation[] = [];
      for (const [index, record] of records.entries()) {
        const expectedRevision = writes[index]?.expectedRevision ?? null;
        const actualRevision = current[index]?.record?.revision ?? null;
        if (actualRevision !== expectedRevision) {
          conflicts.push({ kind: record.kind, id: record.id, expectedRevision, actualRevision });
          continue;
        }
        operations.push({
          kind: 'put',
          path: recordPath(record.repo, record.kind, record.id),
          content: encoder.encode(`${JSON.stringify(record, null, 2)}\n`),
          expectedVersion: current[index]?.document?.version ?? null,
        });
      }
      if (conflicts.length > 0) return { ok: false, conflicts };
      const kinds = [...new Set(records.map((record) => record.kind))].join(', ');
      generation += 1;
      const result = await store.write(operations, {
        message: `chore(memory): task records (${records.length} ${kinds})`,
      });
      generation += 1;
      if (result.status === 'committed') return { ok: true };
    }
    throw new RepomemError(
      'CONFLICT',
      `task-record write did not land after ${maxAttempts} attempts (documents kept changing under it)`,
    );
  }

  const analysisOf = (record: TaskRecord): AnalyzedTaskRecordText => {
    const entry = entryOf.get(record);
    if (entry === undefined) return analyzeTaskRecordText(record.text);
    entry.analysis ??= analyzeTaskRecordText(record.text);
    return entry.analysis;
  };

  return {
    name: 'documents',
    apply,
    async get(repo, kind, id) {
      ensureOpen();
      assertTaskRecordRepo(repo);
      assertTaskRecordKind(kind);
      assertTaskRecordId(id);
      return (await readRecord(repo, kind, id)).record;
    },
    async list(query: TaskRecordQuery) {
      ensureOpen();
      assertTaskRecordQuery(query);
      const { records } = await scan(query.repo, query.kind);
      return selectTaskRecords(records, query, true);
    },
    async search(query: TaskRecordSearchQuery) {
      ensureOpen();
      assertTaskRecordSearch(query);
      const found = await scan(query.repo, query.kind);
      found.uses += 1;
      if (found.uses >= 2) found.index ??= buildRecordWordIndex(found.records, analysisOf);
      const indexed = found.index === undefined ? undefined : searchRecordWordIndex(found.index, query);
      return indexed ?? searchTaskRecords(found.records, query, analysisOf, true);
    },
    async delete(repo, kind, id) {
      ensureOpen();
      assertTaskRecordRepo(repo);
      assertTaskRecordKind(kind);
      assertTaskRecordId(id);
      const path = recordPath(repo, kind, id);
      for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
        const document = await store.get(path);
        if (document === undefined) return false;
        generation += 1;
        const result = await store.write([{ kind: 'delete', path, expectedVersion: document.version }], {
          message: `chore(memory): delete task record (${kind})`,
        });
        generation += 1;
        if (result.status === 'committed') {
          cache.delete(path);
          return true;
        }
      }
      throw new RepomemError(
        'CONFLICT',
        `deleting task record ${kind}/${id} kept conflicting (${maxAttempts} attempts)`,
      );
    },
    drainSkippedRecords() {
      return skipped.splice(0, skipped.length);
    },
    async close() {
      closed = true;
      cache.clear();
      scans.clear();
    },
  };
}
