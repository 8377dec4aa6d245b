// Why: verified memory must work on every store, not only SQLite. This backend keeps each record
// as one JSON document and telemetry as daily JSONL documents on any MemoryStore, and turns the
// store's per-document compare-and-swap into the record-level compare-and-swap of `apply`.
import { RepomemError } from '../errors.js';
import { RESERVED_DOCUMENT_PREFIX } from '../search/document-filter.js';
import type { MemoryStore, StoredDocument, WriteOperation } from '../store/contract.js';
import { normalizeDocumentPath } from '../store/paths.js';
import type {
  RecordApplyResult,
  RecordConflict,
  RecordQuery,
  RecordStats,
  RecordWrite,
  VerifiedMemoryBackend,
} from './backend.js';
import {
  MEMORY_STATUSES,
  type MemoryStatus,
  subjectKey,
  TELEMETRY_EVENT_TYPES,
  type TelemetryEvent,
  TelemetryEventSchema,
  type TelemetryEventType,
  type VerifiedMemory,
  VerifiedMemorySchema,
} from './record.js';
import { assertDeleteArguments, assertRepo, compareNewestFirst, liveAtMs, selectRecords } from './record-query.js';
import { matchRecordText, scoreRecordText } from './record-text-match.js';

/** Default document prefix of {@link createDocumentRecordBackend}. */
export const DEFAULT_VERIFIED_PREFIX = '.repomem/verified';

/** Options of {@link createDocumentRecordBackend}. */
export interface DocumentRecordBackendOptions {
  /**
   * Directory (document path prefix) holding records and events (default {@link DEFAULT_VERIFIED_PREFIX}).
   * Must lie under `.repomem/`, the directory document search never reads, so records (which
   * carry a repository each, and may be invalidated) never come back from a document search.
   */
  readonly prefix?: string;
  /** Most attempts of one write when the store reports a concurrent change (default 50). */
  readonly maxAttempts?: number;
}

interface CachedRecord {
  readonly version: string;
  readonly record: VerifiedMemory;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

function invalidDocument(path: string, problem: string, cause?: unknown): RepomemError {
  return new RepomemError('INVALID_DOCUMENT', `verified memory document ${path} is invalid: ${problem}`, {
    details: { path },
    ...(cause === undefined ? {} : { cause }),
  });
}

function zodProblem(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}

function parseJson(path: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalidDocument(path, `not JSON (${(error as Error).message})`, error);
  }
}

function eventDay(event: TelemetryEvent): string {
  return new Date(event.at).toISOString().slice(0, 10);
}

function emptyCounts<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}

/**
 * A {@link VerifiedMemoryBackend} on any {@link MemoryStore}.
 *
 * Layout (under `prefix`, default `.repomem/verified`; document search skips `.repomem/`):
 * - `<owner>/<name>/records/<id>.json`: one record, pretty JSON, validated with
 *   `VerifiedMemorySchema` on every read (a corrupt document throws `INVALID_DOCUMENT` naming it);
 * - `<owner>/<name>/events/<YYYY-MM-DD>.jsonl`: telemetry, one event per line, day of `at` in UTC.
 *
 * `apply` reads each record's current document, checks its `revision`, then writes every record
 * and event append as ONE store batch whose expected versions are the versions just read, so a
 * concurrent writer turns into a retry (store conflict) or a returned {@link RecordConflict}
 * (revision changed). All-or-nothing holds as far as the store's batches are atomic.
 *
 * Queries scan the repository's records (parsed documents are cached by version, so a scan
 * costs one `list` plus reads of changed documents): fine up to a few thousand memories per
 * repository (seed 003's soft limit is 1000 active); use the SQLite backend beyond that.
 * `close()` does not close `store` (the caller owns it).
 */
export function createDocumentRecordBackend(
  store: MemoryStore,
  options: DocumentRecordBackendOptions = {},
): VerifiedMemoryBackend {
  if (store === null || typeof store !== 'object' || typeof store.write !== 'function') {
    throw new RepomemError('INVALID_ARGUMENT', 'createDocumentRecordBackend expects a MemoryStore');
  }
  const prefix = normalizeDocumentPath(options.prefix ?? DEFAULT_VERIFIED_PREFIX);
  if (!`${prefix}/`.startsWith(RESERVED_DOCUMENT_PREFIX) || `${prefix}/` === RESERVED_DOCUMENT_PREFIX) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `verified-memory prefix must be a directory under ${RESERVED_DOCUMENT_PREFIX} (which document search skips), got ${JSON.stringify(options.prefix)}; move existing records there`,
      { details: { prefix: options.prefix } },
    );
  }
  const maxAttempts = options.maxAttempts ?? 50;
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1) {
    throw new RepomemError('INVALID_ARGUMENT', `maxAttempts must be a positive integer, got ${String(maxAttempts)}`);
  }
  const cache = new Map<string, CachedRecord>();
  let closed = false;

  const repoDir = (repo: string): string => `${prefix}/${repo}`;
  const recordPath = (repo: string, id: string): string => `${repoDir(repo)}/records/${id}.json`;
  const eventsPath = (repo: string, day: string): string => `${repoDir(repo)}/events/${day}.jsonl`;

  const ensureOpen = (): void => {
    if (closed) throw new RepomemError('STORE_CLOSED', 'the documents verified-memory backend is closed');
  };

  function parseRecord(document: StoredDocument, repo: string, id?: string): VerifiedMemory {
    const cached = cache.get(document.path);
    if (cached !== undefined && cached.version === document.version) return cached.record;
    const parsed = VerifiedMemorySchema.safeParse(parseJson(document.path, decoder.decode(document.content)));
    if (!parsed.success) throw invalidDocument(document.path, zodProblem(parsed.error));
    const record = parsed.data;
    const expectedName = document.path.slice(document.path.lastIndexOf('/') + 1);
    if (record.repo !== repo || expectedName !== `${record.id}.json` || (id !== undefined && record.id !== id)) {
      throw invalidDocument(document.path, `holds memory ${record.id} of ${record.repo}, which does not belong here`);
    }
    cache.set(document.path, { version: document.version, record });
    return record;
  }

  async function readRecord(repo: string, id: string): Promise<{ document?: StoredDocument; record?: VerifiedMemory }> {
    const document = await store.get(recordPath(repo, id));
    if (document === undefined) return {};
    return { document, record: parseRecord(document, repo, id) };
  }

  async function allRecords(repo: string): Promise<VerifiedMemory[]> {
    const entries = await store.list(`${repoDir(repo)}/records/`);
    const records: VerifiedMemory[] = [];
    for (const entry of entries) {
      if (!entry.path.endsWith('.json')) continue;
      const cached = cache.get(entry.path);
      if (cached !== undefined && cached.version === entry.version) {
        records.push(cached.record);
        continue;
      }
      const document = await store.get(entry.path);
      if (document !== undefined) records.push(parseRecord(document, repo));
    }
    return records;
  }

  function parseEvents(document: StoredDocument): TelemetryEvent[] {
    const events: TelemetryEvent[] = [];
    const lines = decoder.decode(document.content).split('\n');
    for (const [index, line] of lines.entries()) {
      if (line.trim() === '') continue;
      const parsed = TelemetryEventSchema.safeParse(parseJson(document.path, line));
      if (!parsed.success) throw invalidDocument(document.path, `line ${index + 1}: ${zodProblem(parsed.error)}`);
      events.push(parsed.data);
    }
    return events;
  }

  /** Store operations appending `events` to their daily files (read now; expected = version read). */
  async function eventOperations(events: readonly TelemetryEvent[]): Promise<WriteOperation[]> {
    const byPath = new Map<string, string[]>();
    for (const raw of events) {
      const event = TelemetryEventSchema.parse(raw);
      const path = eventsPath(event.repo, eventDay(event));
      const lines = byPath.get(path) ?? [];
      lines.push(JSON.stringify(event));
      byPath.set(path, lines);
    }
    const operations: WriteOperation[] = [];
    for (const [path, lines] of byPath) {
      const current = await store.get(path);
      const before = current === undefined ? '' : decoder.decode(current.content);
      const separator = before === '' || before.endsWith('\n') ? '' : '\n';
      operations.push({
        kind: 'put',
        path,
        content: encoder.encode(`${before}${separator}${lines.join('\n')}\n`),
        expectedVersion: current?.version ?? null,
      });
    }
    return operations;
  }

  function validateWrite(write: RecordWrite): VerifiedMemory {
    const parsed = VerifiedMemorySchema.safeParse(write.record);
    if (!parsed.success) {
      throw new RepomemError('INVALID_ARGUMENT', `invalid memory record: ${zodProblem(parsed.error)}`);
    }
    const expected = write.expectedRevision;
    if (expected !== null && (!Number.isSafeInteger(expected) || expected < 1)) {
      throw new RepomemError('INVALID_ARGUMENT', `expectedRevision must be null or a positive integer`);
    }
    return parsed.data;
  }

  async function apply(writes: readonly RecordWrite[], events: readonly TelemetryEvent[]): Promise<RecordApplyResult> {
    ensureOpen();
    const records = writes.map(validateWrite);
    const seen = new Set<string>();
    for (const record of records) {
      const key = `${record.repo}/${record.id}`;
      if (seen.has(key))
        throw new RepomemError('INVALID_ARGUMENT', `memory ${record.id} is written twice in one apply`);
      seen.add(key);
    }
    for (const event of events) {
      const parsed = TelemetryEventSchema.safeParse(event);
      if (!parsed.success) {
        throw new RepomemError('INVALID_ARGUMENT', `invalid telemetry event: ${zodProblem(parsed.error)}`);
      }
    }
    if (records.length === 0 && events.length === 0) return { ok: true };
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const conflicts: RecordConflict[] = [];
      const operations: WriteOperation[] = [];
      for (const [index, record] of records.entries()) {
        const expectedRevision = writes[index]?.expectedRevision ?? null;
        const current = await readRecord(record.repo, record.id);
        const actualRevision = current.record?.revision ?? null;
        if (actualRevision !== expectedRevision) {
          conflicts.push({ id: record.id, expectedRevision, actualRevision });
          continue;
        }
        operations.push({
          kind: 'put',
          path: recordPath(record.repo, record.id),
          content: encoder.encode(`${JSON.stringify(record, null, 2)}\n`),
          expectedVersion: current.document?.version ?? null,
        });
      }
      if (conflicts.length > 0) return { ok: false, conflicts };
      operations.push(...(await eventOperations(events)));
      const result = await store.write(operations, {
        message: `chore(memory): verified memory (${records.length} records, ${events.length} events)`,
      });
      if (result.status === 'committed') return { ok: true };
    }
    throw new RepomemError(
      'CONFLICT',
      `verified-memory write did not land after ${maxAttempts} attempts (documents kept changing under it)`,
    );
  }

  async function remove(repo: string, id: string, expectedRevision: number): Promise<boolean> {
    ensureOpen();
    assertRepo(repo);
    assertDeleteArguments(id, expectedRevision);
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const current = await readRecord(repo, id);
      if (current.document === undefined || current.record?.revision !== expectedRevision) return false;
      const result = await store.write(
        [{ kind: 'delete', path: recordPath(repo, id), expectedVersion: current.document.version }],
        { message: `chore(memory): delete verified memory ${id}` },
      );
      if (result.status === 'committed') {
        cache.delete(recordPath(repo, id));
        return true;
      }
    }
    throw new RepomemError('CONFLICT', `deleting memory ${id} did not land after ${maxAttempts} attempts`);
  }

  async function appendEvents(events: readonly TelemetryEvent[]): Promise<void> {
    const result = await apply([], events);
    if (!result.ok) throw new RepomemError('CONFLICT', 'telemetry append conflicted');
  }

  async function events(query: { readonly repo: string; readonly memoryId?: string; readonly limit?: number }) {
    ensureOpen();
    assertRepo(query.repo);
    const entries = await store.list(`${repoDir(query.repo)}/events/`);
    let found: TelemetryEvent[] = [];
    for (const entry of entries) {
      if (!entry.path.endsWith('.jsonl')) continue;
      const document = await store.get(entry.path);
      if (document === undefined) continue;
      for (const event of parseEvents(document)) {
        if (event.repo !== query.repo) throw invalidDocument(entry.path, `holds an event of ${event.repo}`);
        if (query.memoryId === undefined || event.memory_id === query.memoryId) found.push(event);
      }
    }
    if (query.limit !== undefined && found.length > query.limit) found = found.slice(found.length - query.limit);
    return found;
  }

  return {
    name: 'documents',
    apply,
    delete: remove,
    async get(repo, id) {
      ensureOpen();
      assertRepo(repo);
      if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id)) return undefined;
      return (await readRecord(repo, id)).record;
    },
    async recent(query) {
      ensureOpen();
      assertRepo(query.repo);
      return selectRecords(await allRecords(query.repo), query);
    },
    async byPath(query) {
      ensureOpen();
      assertRepo(query.repo);
      const path = normalizeDocumentPath(query.path);
      const all = await allRecords(query.repo);
      return selectRecords(
        all.filter((record) => record.citations.some((citation) => citation.path === path)),
        query,
      );
    },
    async bySubject(query) {
      ensureOpen();
      assertRepo(query.repo);
      const all = await allRecords(query.repo);
      return selectRecords(
        all.filter((record) => subjectKey(record.subject) === query.subjectKey),
        query,
      );
    },
    async search(query: RecordQuery & { readonly text: string }) {
      ensureOpen();
      assertRepo(query.repo);
      if (typeof query.text !== 'string') throw new RepomemError('INVALID_ARGUMENT', 'search text must be a string');
      const all = await allRecords(query.repo);
      const matching = selectRecords(
        all.filter((record) => matchRecordText(record, query.text)),
        { ...query, limit: undefined },
      );
      const ranked = matching
        .map((record) => ({ record, score: scoreRecordText(record, query.text) }))
        .sort((a, b) => b.score - a.score || compareNewestFirst(a.record, b.record))
        .map((entry) => entry.record);
      return query.limit === undefined ? ranked : ranked.slice(0, query.limit);
    },
    appendEvents: async (list) => {
      ensureOpen();
      await appendEvents(list);
    },
    events,
    async stats(query): Promise<RecordStats> {
      ensureOpen();
      assertRepo(query.repo);
      const byStatus = emptyCounts<MemoryStatus>(MEMORY_STATUSES);
      const live = query.liveAt === undefined ? undefined : liveAtMs(query.liveAt);
      let expired = 0;
      for (const record of await allRecords(query.repo)) {
        byStatus[record.status] += 1;
        if (live !== undefined && record.status === 'active' && Date.parse(record.expires_at) <= live) expired += 1;
      }
      const counts = emptyCounts<TelemetryEventType>(TELEMETRY_EVENT_TYPES);
      for (const event of await events({ repo: query.repo })) counts[event.type] += 1;
      return { repo: query.repo, byStatus, expired, events: counts };
    },
    async close() {
      closed = true;
      cache.clear();
    },
  };
}
