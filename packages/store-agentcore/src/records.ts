// Why: long-term memory records are read and written in pages and batches of at most 100; these
// helpers page through listings and split batches (never refusing a large one), and report the
// per-record failures a batch call returns as an error instead of dropping them silently.
import {
  BatchCreateMemoryRecordsCommand,
  BatchDeleteMemoryRecordsCommand,
  ListMemoryRecordsCommand,
  type MemoryMetadataFilterExpression,
  type MemoryRecordMetadataValue,
  type MemoryRecordSummary,
  RetrieveMemoryRecordsCommand,
} from '@aws-sdk/client-bedrock-agentcore';
import { RepomemError } from '@repomem/core';
import type { AgentCoreConnection } from './connection.js';
import { MAX_PAGE_SIZE, MAX_RECORD_TEXT_CHARS, MAX_RECORDS_PER_BATCH } from './model-patterns.js';

/** Which records a listing reads: one namespace exactly, or every namespace under a path. */
export type NamespaceSelector = { readonly namespace: string } | { readonly namespacePath: string };

/** A record read back: id, namespace, text and string metadata. */
export interface StoredRecord {
  readonly id: string;
  readonly namespace: string;
  readonly text: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly score?: number;
}

/** A record to create. */
export interface NewRecord {
  readonly namespace: string;
  readonly text: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly at: Date;
}

function toStored(summary: MemoryRecordSummary): StoredRecord | undefined {
  const id = summary.memoryRecordId;
  const namespace = summary.namespaces?.[0];
  const text = summary.content !== undefined && 'text' in summary.content ? summary.content.text : undefined;
  if (id === undefined || namespace === undefined || text === undefined) return undefined;
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(summary.metadata ?? {})) {
    if (value !== undefined && 'stringValue' in value && typeof value.stringValue === 'string')
      metadata[key] = value.stringValue;
  }
  return { id, namespace, text, metadata, ...(summary.score === undefined ? {} : { score: summary.score }) };
}

/** Every record under `selector` (all pages), optionally filtered on string metadata equality. */
export async function listRecords(
  connection: AgentCoreConnection,
  selector: NamespaceSelector,
  filters?: Readonly<Record<string, string>>,
): Promise<StoredRecord[]> {
  const metadataFilters: MemoryMetadataFilterExpression[] | undefined =
    filters === undefined
      ? undefined
      : Object.entries(filters).map(([key, value]) => ({
          left: { metadataKey: key },
          operator: 'EQUALS_TO',
          right: { metadataValue: { stringValue: value } },
        }));
  const records: StoredRecord[] = [];
  let nextToken: string | undefined;
  do {
    const page = await connection.send('ListMemoryRecords', (client, options) =>
      client.send(
        new ListMemoryRecordsCommand({
          memoryId: connection.memoryId,
          ...selector,
          maxResults: MAX_PAGE_SIZE,
          ...(metadataFilters === undefined ? {} : { metadataFilters }),
          ...(nextToken === undefined ? {} : { nextToken }),
        }),
        options,
      ),
    );
    for (const summary of page.memoryRecordSummaries ?? []) {
      const record = toStored(summary);
      if (record === undefined) continue;
      if (filters !== undefined && Object.entries(filters).some(([key, value]) => record.metadata[key] !== value))
        continue;
      records.push(record);
    }
    nextToken = page.nextToken;
  } while (nextToken !== undefined && nextToken !== '');
  return records;
}

/** Records the service's retrieval ranks best for `query` under `selector` (at most `topK`, best first). */
export async function retrieveRecords(
  connection: AgentCoreConnection,
  selector: NamespaceSelector,
  query: string,
  topK: number,
): Promise<StoredRecord[]> {
  const output = await connection.send('RetrieveMemoryRecords', (client, options) =>
    client.send(
      new RetrieveMemoryRecordsCommand({
        memoryId: connection.memoryId,
        ...selector,
        searchCriteria: { searchQuery: query.slice(0, 10_000), topK: Math.max(1, Math.min(100, topK)) },
        maxResults: Math.max(1, Math.min(100, topK)),
      }),
      options,
    ),
  );
  return (output.memoryRecordSummaries ?? []).flatMap((summary) => toStored(summary) ?? []);
}

function batches<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += MAX_RECORDS_PER_BATCH) {
    out.push(items.slice(index, index + MAX_RECORDS_PER_BATCH));
  }
  return out;
}

function metadataOf(metadata: Readonly<Record<string, string>>): Record<string, MemoryRecordMetadataValue> {
  return Object.fromEntries(Object.entries(metadata).map(([key, value]) => [key, { stringValue: value }]));
}

/**
 * Create records, in calls of at most 100 (run in parallel). Throws `INVALID_ARGUMENT` for a
 * text over 16,000 characters before sending anything, and `BACKEND_UNAVAILABLE` naming the
 * failed records when the service refuses some of them. Returns the new record ids in input order.
 */
export async function createRecords(connection: AgentCoreConnection, records: readonly NewRecord[]): Promise<string[]> {
  for (const record of records) {
    if (record.text.length === 0 || record.text.length > MAX_RECORD_TEXT_CHARS) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `a memory record holds 1 to ${MAX_RECORD_TEXT_CHARS} characters, got ${record.text.length} (namespace ${record.namespace})`,
      );
    }
  }
  const indexed = records.map((record, index) => ({ record, index }));
  const ids: string[] = new Array(records.length).fill('');
  await Promise.all(
    batches(indexed).map(async (batch) => {
      const output = await connection.send('BatchCreateMemoryRecords', (client, options) =>
        client.send(
          new BatchCreateMemoryRecordsCommand({
            memoryId: connection.memoryId,
            records: batch.map(({ record, index }) => ({
              requestIdentifier: `r${index}`,
              namespaces: [record.namespace],
              content: { text: record.text },
              timestamp: record.at,
              metadata: metadataOf(record.metadata),
            })),
          }),
          options,
        ),
      );
      const failed = output.failedRecords ?? [];
      if (failed.length > 0) {
        throw new RepomemError(
          'BACKEND_UNAVAILABLE',
          `AgentCore refused ${failed.length} of ${batch.length} records: ${failed
            .slice(0, 3)
            .map((item) => `${item.requestIdentifier ?? '?'} ${item.errorCode ?? ''} ${item.errorMessage ?? ''}`.trim())
            .join('; ')}`,
        );
      }
      for (const item of output.successfulRecords ?? []) {
        const index = Number((item.requestIdentifier ?? '').slice(1));
        if (Number.isSafeInteger(index) && item.memoryRecordId !== undefined) ids[index] = item.memoryRecordId;
      }
    }),
  );
  return ids;
}

/**
 * Delete records by id, in calls of at most 100 (run in parallel). A record already gone is not
 * an error (a delete is retried safely); any other per-record failure is `BACKEND_UNAVAILABLE`.
 */
export async function deleteRecords(connection: AgentCoreConnection, ids: readonly string[]): Promise<void> {
  const unique = [...new Set(ids)];
  await Promise.all(
    batches(unique).map(async (batch) => {
      const output = await connection.send('BatchDeleteMemoryRecords', (client, options) =>
        client.send(
          new BatchDeleteMemoryRecordsCommand({
            memoryId: connection.memoryId,
            records: batch.map((memoryRecordId) => ({ memoryRecordId })),
          }),
          options,
        ),
      );
      const failed = (output.failedRecords ?? []).filter((item) => item.errorCode !== 404);
      if (failed.length > 0) {
        throw new RepomemError(
          'BACKEND_UNAVAILABLE',
          `AgentCore could not delete ${failed.length} records: ${failed
            .slice(0, 3)
            .map((item) => `${item.memoryRecordId ?? '?'} ${item.errorCode ?? ''} ${item.errorMessage ?? ''}`.trim())
            .join('; ')}`,
        );
      }
    }),
  );
}
