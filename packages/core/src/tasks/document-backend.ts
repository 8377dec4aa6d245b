// Why: task memory must run on every store, not only those with native records. This backend
// keeps each task record as one JSON document on any MemoryStore and turns the store's
// per-document compare-and-swap into the record-level compare-and-swap of `apply`.
import { RepomemError } from '../errors.js';
import { RESERVED_DOCUMENT_PREFIX } from '../search/document-filter.js';
import type { DocumentEntry, MemoryStore, StoredDocument, WriteOperation } from '../store/contract.js';
import { normalizeDocumentPath } from '../store/paths.js';
import {
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
}

interface CachedRecord {
  readonly version: string;
  readonly record: TaskRecord;
  analysis?: AnalyzedTaskRecordText;
}

/** More uncached documents than this in one scan are read with `readAll` when the store has it. */
const READ_ALL_THRESHOLD = 16;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

function invalidDocument(path: string, problem: string, cause?: unknown): RepomemError {
  return new RepomemError('INVALID_DOCUMENT', `task record document ${path} is invalid: ${problem}`, {
    details: { path },
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * A {@link TaskRecordBackend} on any {@link MemoryStore}.
 *
 * Layout: `<prefix>/<kind>/<owner>/<name>/<id>.json` (default prefix `.repomem/tasks`, which
 * document search skips), one pretty-printed record per document, validated with
 * `TaskRecordSchema` on every read (a corrupt document throws `INVALID_DOCUMENT` naming it).
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
 * a repeated query costs one `list` plus reads of what changed, read in parallel or with one
 * `readAll`), then filter, order and search in memory with the contract's reference functions.
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
  let closed = false;

  const recordPath = (repo: string, kind: TaskRecordKind, id: string): string =>
    `${recordDirectory(prefix, kind, repo)}/${recordFileName(id)}`;

  const ensureOpen = (): void => {
    if (closed) throw new RepomemError('STORE_CLOSED', 'the documents task-record backend is closed');
  };

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
    return entry;
  }

  async function readRecord(
    repo: string,
    kind: TaskRecordKind,
    id: string,
  ): Promise<{ document?: StoredDocument; record?: TaskRecord }> {
    const document = await store.get(recordPath(repo, kind, id));
    if (document === undefined) return {};
    return { document, record: parseRecord(document, repo, kind, id).record };
  }

  /** Every record of one repository and kind (cached by version; what changed is read at once). */
  async function scan(repo: string, kind: TaskRecordKind): Promise<CachedRecord[]> {
    const directory = `${recordDirectory(prefix, kind, repo)}/`;
    const entries = (await store.list(directory)).filter(
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
        if (wanted.has(document.path)) found.set(document.path, parseRecord(document, repo, kind));
      }
    } else {
      const documents = await Promise.all(missing.map((entry) => store.get(entry.path)));
      for (const document of documents) {
        if (document !== undefined) found.set(document.path, parseRecord(document, repo, kind));
      }
    }
    return [...found.values()];
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
      const result = await store.write(operations, {
        message: `chore(memory): task records (${records.length} ${kinds})`,
      });
      if (result.status === 'committed') return { ok: true };
    }
    throw new RepomemError(
      'CONFLICT',
      `task-record write did not land after ${maxAttempts} attempts (documents kept changing under it)`,
    );
  }

  const analysisOf = (entries: Map<TaskRecord, CachedRecord>) => (record: TaskRecord) => {
    const entry = entries.get(record);
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
      const entries = await scan(query.repo, query.kind);
      return selectTaskRecords(
        entries.map((entry) => entry.record),
        query,
      );
    },
    async search(query: TaskRecordSearchQuery) {
      ensureOpen();
      assertTaskRecordSearch(query);
      const entries = await scan(query.repo, query.kind);
      const byRecord = new Map(entries.map((entry) => [entry.record, entry]));
      return searchTaskRecords(byRecord.keys(), query, analysisOf(byRecord));
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
        const result = await store.write([{ kind: 'delete', path, expectedVersion: document.version }], {
          message: `chore(memory): delete task record (${kind})`,
        });
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
    async close() {
      closed = true;
      cache.clear();
    },
  };
}
