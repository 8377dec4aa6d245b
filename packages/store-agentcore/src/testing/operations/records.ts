// Why: long-term memory records as direct writes see them: batch create/update/delete with
// per-record outcomes, get/delete by id (optionally checked against a namespace), listing with
// exact `namespace` or prefix `namespacePath` scope, and retrieval ranked by relevance.
import { randomBytes } from 'node:crypto';
import { fieldValidationError, notFound } from '../errors.js';
import {
  filterNeedsRight,
  inNamespaceScope,
  type NamespaceScope,
  recordMetadataMatches,
  relevance,
} from '../matching.js';
import { type PageKey, paginate, queryFingerprint, sortByKey } from '../pagination.js';
import type { MemoryState, StoredRecord } from '../state.js';
import type {
  ListRecordsWire,
  RecordCreateWire,
  RecordDeleteWire,
  RecordMetadataFilterWire,
  RecordUpdateWire,
  RetrieveRecordsWire,
} from '../wire-types.js';
import { idempotent, type OperationContext, type OperationHandler } from './context.js';

/**
 * Strategy id the emulator gives a record written without `memoryStrategyId` (the service's
 * output always carries one).
 */
export const EMULATOR_DIRECT_STRATEGY_ID = 'directWrite';

/** Default `topK` of RetrieveMemoryRecords. */
export const DEFAULT_TOP_K = 10;

function newRecordId(): string {
  // `mem-` + 44 characters: inside the model's 40..50 length and `mem-[a-zA-Z0-9-_]*` pattern.
  return `mem-${randomBytes(33).toString('base64url')}`;
}

function recordWire(record: StoredRecord, score?: number): Record<string, unknown> {
  return {
    memoryRecordId: record.memoryRecordId,
    content: { text: record.text },
    memoryStrategyId: record.memoryStrategyId,
    namespaces: [...record.namespaces],
    createdAt: record.createdAt,
    ...(record.metadata ? { metadata: record.metadata } : {}),
    ...(score === undefined ? {} : { score }),
  };
}

interface RecordOutcome {
  readonly memoryRecordId: string;
  readonly status: 'SUCCEEDED' | 'FAILED';
  readonly requestIdentifier?: string;
  readonly errorCode?: number;
  readonly errorMessage?: string;
}

function failed(
  memoryRecordId: string,
  errorCode: number,
  errorMessage: string,
  requestIdentifier?: string,
): RecordOutcome {
  return {
    memoryRecordId,
    status: 'FAILED',
    errorCode,
    errorMessage,
    ...(requestIdentifier === undefined ? {} : { requestIdentifier }),
  };
}

function batchResult(outcomes: readonly RecordOutcome[]): Record<string, unknown> {
  return {
    successfulRecords: outcomes.filter((outcome) => outcome.status === 'SUCCEEDED'),
    failedRecords: outcomes.filter((outcome) => outcome.status === 'FAILED'),
  };
}

function issue(name: string, rule: string): { name: string; message: string } {
  return { name, message: `Value at '${name}' failed to satisfy constraint: ${rule}` };
}

function scopeOf(input: { readonly namespace?: string; readonly namespacePath?: string }): NamespaceScope {
  if (input.namespace !== undefined && input.namespacePath !== undefined) {
    throw fieldValidationError([issue('namespace', 'Member must not be set together with namespacePath')]);
  }
  if (input.namespace !== undefined) return { kind: 'exact', namespace: input.namespace };
  if (input.namespacePath !== undefined) return { kind: 'path', namespacePath: input.namespacePath };
  throw fieldValidationError([issue('namespace', 'One of namespace or namespacePath must be provided')]);
}

function checkFilters(path: string, filters: readonly RecordMetadataFilterWire[] | undefined): void {
  const issues = (filters ?? []).flatMap((filter, index) =>
    filterNeedsRight(filter.operator) && filter.right?.metadataValue === undefined
      ? [issue(`${path}.${index + 1}.member.right`, `Member must not be null for operator ${filter.operator}`)]
      : [],
  );
  if (issues.length > 0) throw fieldValidationError(issues);
}

function createOne(memory: MemoryState, record: RecordCreateWire, seen: Set<string>, now: number): RecordOutcome {
  const id = newRecordId();
  if (seen.has(record.requestIdentifier)) {
    return failed(id, 400, 'Duplicate requestIdentifier in the batch.', record.requestIdentifier);
  }
  seen.add(record.requestIdentifier);
  if (record.namespaces.length !== 1 || record.content.text === undefined) {
    return failed(id, 400, 'A record needs exactly one namespace and text content.', record.requestIdentifier);
  }
  memory.records.set(id, {
    memoryRecordId: id,
    text: record.content.text,
    memoryStrategyId: record.memoryStrategyId ?? EMULATOR_DIRECT_STRATEGY_ID,
    namespaces: [...record.namespaces],
    metadata: record.metadata ? { ...record.metadata } : undefined,
    createdAt: record.timestamp,
    updatedAt: now,
    seq: memory.nextSeq(),
  });
  return { memoryRecordId: id, status: 'SUCCEEDED', requestIdentifier: record.requestIdentifier };
}

const batchCreate: OperationHandler = (context) =>
  idempotent(context, () => {
    const records = context.input.records as readonly RecordCreateWire[];
    const seen = new Set<string>();
    return batchResult(records.map((record) => createOne(context.memory, record, seen, context.now)));
  });

function updateOne(memory: MemoryState, update: RecordUpdateWire): RecordOutcome {
  const record = memory.records.get(update.memoryRecordId);
  if (!record) return failed(update.memoryRecordId, 404, 'Memory record not found.');
  if (update.sourceNamespaces?.length && !update.sourceNamespaces.some((ns) => record.namespaces.includes(ns))) {
    return failed(update.memoryRecordId, 404, 'Memory record not found in the source namespaces.');
  }
  if (update.namespaces !== undefined && update.namespaces.length !== 1) {
    return failed(update.memoryRecordId, 400, 'A record needs exactly one namespace.');
  }
  if (update.content?.text !== undefined) record.text = update.content.text;
  if (update.namespaces !== undefined) record.namespaces = [...update.namespaces];
  if (update.memoryStrategyId !== undefined) record.memoryStrategyId = update.memoryStrategyId;
  if (update.metadata !== undefined) record.metadata = { ...update.metadata };
  record.updatedAt = update.timestamp;
  return { memoryRecordId: record.memoryRecordId, status: 'SUCCEEDED' };
}

const batchUpdate: OperationHandler = (context) =>
  batchResult(
    (context.input.records as readonly RecordUpdateWire[]).map((update) => updateOne(context.memory, update)),
  );

function deleteOne(memory: MemoryState, request: RecordDeleteWire): RecordOutcome {
  const record = memory.records.get(request.memoryRecordId);
  if (!record || (request.namespace !== undefined && !record.namespaces.includes(request.namespace))) {
    return failed(request.memoryRecordId, 404, 'Memory record not found.');
  }
  memory.records.delete(record.memoryRecordId);
  return { memoryRecordId: record.memoryRecordId, status: 'SUCCEEDED' };
}

const batchDelete: OperationHandler = (context) =>
  batchResult(
    (context.input.records as readonly RecordDeleteWire[]).map((request) => deleteOne(context.memory, request)),
  );

function requireRecord(context: OperationContext): StoredRecord {
  const id = context.input.memoryRecordId as string;
  const namespace = context.input.namespace as string | undefined;
  const record = context.memory.records.get(id);
  if (!record || (namespace !== undefined && !record.namespaces.includes(namespace))) {
    throw notFound(`Memory record ${id} not found.`);
  }
  return record;
}

const getRecord: OperationHandler = (context) => ({ memoryRecord: recordWire(requireRecord(context)) });

const deleteRecord: OperationHandler = (context) => {
  const record = requireRecord(context);
  context.memory.records.delete(record.memoryRecordId);
  return { memoryRecordId: record.memoryRecordId };
};

function recordKey(record: StoredRecord): PageKey {
  return [record.createdAt, record.seq];
}

const listRecords: OperationHandler = (context) => {
  const input = context.input as unknown as ListRecordsWire;
  const scope = scopeOf(input);
  checkFilters('metadataFilters', input.metadataFilters);
  const matching = [...context.memory.records.values()].filter(
    (record) =>
      inNamespaceScope(record.namespaces, scope) &&
      (input.memoryStrategyId === undefined || record.memoryStrategyId === input.memoryStrategyId) &&
      recordMetadataMatches(record.metadata, input.metadataFilters ?? []),
  );
  const fingerprint = queryFingerprint(context.operation, [
    scope,
    input.memoryStrategyId ?? null,
    input.metadataFilters ?? null,
  ]);
  const { page, nextToken } = paginate(sortByKey(matching, recordKey), recordKey, input, fingerprint);
  return { memoryRecordSummaries: page.map((record) => recordWire(record)), ...(nextToken ? { nextToken } : {}) };
};

const retrieveRecords: OperationHandler = (context) => {
  const input = context.input as unknown as RetrieveRecordsWire;
  const scope = scopeOf(input);
  const criteria = input.searchCriteria;
  checkFilters('searchCriteria.metadataFilters', criteria.metadataFilters);
  const scored = [...context.memory.records.values()]
    .filter(
      (record) =>
        inNamespaceScope(record.namespaces, scope) &&
        (criteria.memoryStrategyId === undefined || record.memoryStrategyId === criteria.memoryStrategyId) &&
        recordMetadataMatches(record.metadata, criteria.metadataFilters ?? []),
    )
    .map((record) => ({ record, score: relevance(criteria.searchQuery, record.text) }))
    .filter((hit) => hit.score > 0);
  const keyOf = (hit: { record: StoredRecord; score: number }): PageKey => [-hit.score, hit.record.seq];
  const ranked = sortByKey(scored, keyOf).slice(0, criteria.topK ?? DEFAULT_TOP_K);
  const fingerprint = queryFingerprint(context.operation, [scope, criteria]);
  const { page, nextToken } = paginate(ranked, keyOf, input, fingerprint);
  return {
    memoryRecordSummaries: page.map((hit) => recordWire(hit.record, hit.score)),
    ...(nextToken ? { nextToken } : {}),
  };
};

/** Handlers of the long-term (record) operations, by operation name. */
export const recordHandlers: Readonly<Record<string, OperationHandler>> = {
  BatchCreateMemoryRecords: batchCreate,
  BatchUpdateMemoryRecords: batchUpdate,
  BatchDeleteMemoryRecords: batchDelete,
  GetMemoryRecord: getRecord,
  DeleteMemoryRecord: deleteRecord,
  ListMemoryRecords: listRecords,
  RetrieveMemoryRecords: retrieveRecords,
};
