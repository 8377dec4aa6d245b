// Why: task memory (episodes, review rules, preferences, knowledge, context receipts) kept
// natively in AgentCore. Each repository's task records are one collection (a chain of deltas,
// see collection.ts), so a batch across kinds lands whole or not at all with compare-and-swap on
// revisions; every record is also a memory record in the namespace AgentCore deployments use for
// its kind (`/{actorId}/episodes/{taskId}/`, `/{actorId}/review-rules/`, `users/{login}/...`),
// written directly so the service's retrieval and hierarchical `namespacePath` reads find it at once.
import {
  assertTaskRecordId,
  assertTaskRecordKind,
  assertTaskRecordQuery,
  assertTaskRecordRepo,
  assertTaskRecordSearch,
  RepomemError,
  searchTaskRecords,
  selectTaskRecords,
  type TaskRecord,
  type TaskRecordApplyResult,
  type TaskRecordBackend,
  type TaskRecordConflict,
  type TaskRecordKind,
  TaskRecordSchema,
  validateTaskRecordWrites,
} from '@repomem/core';
import { z } from 'zod';
import { type CollectionAddress, type CollectionView, commitCollection, readCollection } from './collection.js';
import type { AgentCoreConnection } from './connection.js';
import { escapePath, hashedSessionId, namespaceOf, repositoryActorId } from './identifiers.js';
import { createRecords, deleteRecords, listRecords } from './records.js';

const DeltaSchema = z.object({
  writes: z.array(TaskRecordSchema),
  deletes: z.array(z.object({ kind: z.string(), id: z.string() })),
});
type Delta = z.infer<typeof DeltaSchema>;

/** Record metadata key holding `kind/id` of a materialised task record (id characters are all allowed in metadata). */
export const TASK_RECORD_KEY = 'repomem.task';

/**
 * The namespace a task record is materialised in, per kind: episodes under
 * `/{actorId}/episodes/{task id}/`, rules under `/{actorId}/review-rules/`, preferences under
 * `users/{login}/{actorId}/` (so `users/{login}/` reads a user's preferences across
 * repositories), knowledge under `/{actorId}/knowledge/learned/` (inside the repository's
 * knowledge hierarchy, beside verified memories), receipts under `/{actorId}/receipts/`.
 * Every name is escaped (see `escapeSegment`); no id can leave the repository's namespaces.
 */
export function taskRecordNamespace(repo: string, kind: TaskRecordKind, id: string): string {
  const actorId = repositoryActorId(repo);
  switch (kind) {
    case 'episode':
      return namespaceOf([actorId, 'episodes', escapePath(id, 'task id')]);
    case 'rule':
      return namespaceOf([actorId, 'review-rules']);
    case 'preference':
      return namespaceOf(['users', escapePath(id, 'login'), actorId], false);
    case 'knowledge':
      return namespaceOf([actorId, 'knowledge', 'learned']);
    case 'receipt':
      return namespaceOf([actorId, 'receipts']);
  }
}

/** Options of {@link createAgentCoreTaskRecordBackend}. */
export interface AgentCoreTaskRecordBackendOptions {
  /** An open connection. */
  readonly connection: AgentCoreConnection;
  /** Close the connection with the backend (default true). */
  readonly ownsConnection?: boolean;
}

function zodProblem(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`).join('; ');
}

const keyOf = (kind: string, id: string): string => `${kind}/${id}`;

function foldDeltas(view: CollectionView<Delta>): Map<string, TaskRecord> {
  const records = new Map<string, TaskRecord>();
  for (const delta of view.deltas) {
    for (const record of delta.writes) records.set(keyOf(record.kind, record.id), record);
    for (const removed of delta.deletes) records.delete(keyOf(removed.kind, removed.id));
  }
  return records;
}

/** Open the native task-record backend on an AgentCore memory (no request until the first call). */
export function createAgentCoreTaskRecordBackend(options: AgentCoreTaskRecordBackendOptions): TaskRecordBackend {
  const { connection } = options;
  let closed = false;
  const ensureOpen = (): void => {
    if (closed) throw new RepomemError('STORE_CLOSED', 'the agentcore task-record backend is closed');
  };
  const addressOf = (repo: string): CollectionAddress => ({
    session: { actorId: repositoryActorId(repo), sessionId: hashedSessionId('t', `tasks:${repo}`) },
    name: `tasks:${repo}`,
  });
  const parse = (json: unknown): Delta => {
    const parsed = DeltaSchema.safeParse(json);
    if (!parsed.success)
      throw new RepomemError('INVALID_DOCUMENT', `invalid task-record delta: ${zodProblem(parsed.error)}`);
    return parsed.data;
  };
  const recordsOf = async (repo: string, signal?: AbortSignal): Promise<Map<string, TaskRecord>> =>
    foldDeltas(await readCollection(connection, addressOf(repo), parse, signal));

  /** Replace the materialised copies of the records a delta touched (the chain is the truth). */
  const materialise = async (repo: string, delta: Delta): Promise<void> => {
    const touched = [
      ...delta.writes.map((record) => ({ kind: record.kind, id: record.id })),
      ...delta.deletes.map((removed) => ({ kind: removed.kind as TaskRecordKind, id: removed.id })),
    ];
    // One filtered read per record (metadata equality), not a read of the whole namespace.
    const existing = (
      await Promise.all(
        touched.map((item) =>
          listRecords(
            connection,
            { namespace: taskRecordNamespace(repo, item.kind, item.id) },
            { [TASK_RECORD_KEY]: keyOf(item.kind, item.id) },
          ),
        ),
      )
    ).flat();
    await createRecords(
      connection,
      delta.writes.map((record) => ({
        namespace: taskRecordNamespace(repo, record.kind, record.id),
        text: JSON.stringify(record),
        metadata: {
          [TASK_RECORD_KEY]: keyOf(record.kind, record.id),
          'repomem.revision': String(record.revision),
        },
        at: new Date(record.updated_at),
      })),
    );
    await deleteRecords(
      connection,
      existing.map((record) => record.id),
    );
  };

  const commit = async (
    repo: string,
    decide: (
      records: Map<string, TaskRecord>,
    ) => { delta: Delta } | { conflicts: TaskRecordConflict[] } | { nothing: true },
  ): Promise<{ ok: true; delta?: Delta } | { ok: false; conflicts: TaskRecordConflict[] }> => {
    let appended: Delta | undefined;
    const result = await commitCollection<Delta, TaskRecordConflict[]>(connection, addressOf(repo), parse, (view) => {
      const decision = decide(foldDeltas(view));
      if ('conflicts' in decision) return { kind: 'refuse', refusal: decision.conflicts };
      if ('nothing' in decision) return { kind: 'nothing' };
      appended = decision.delta;
      return { kind: 'append', delta: decision.delta };
    });
    if (!result.ok) return { ok: false, conflicts: result.refusal };
    if (appended !== undefined) await materialise(repo, appended);
    return appended === undefined ? { ok: true } : { ok: true, delta: appended };
  };

  return {
    name: 'agentcore',
    async apply(writes): Promise<TaskRecordApplyResult> {
      ensureOpen();
      const records = validateTaskRecordWrites(writes);
      if (records.length === 0) return { ok: true };
      const repos = [...new Set(records.map((record) => record.repo))].sort();
      for (const repo of repos) repositoryActorId(repo);
      for (const record of records) taskRecordNamespace(record.repo, record.kind, record.id);
      const expectedOf = (index: number): number | null => writes[index]?.expectedRevision ?? null;
      const check = (all: Map<string, TaskRecord>, repo: string): TaskRecordConflict[] =>
        records.flatMap((record, index) => {
          if (record.repo !== repo) return [];
          const actualRevision = all.get(keyOf(record.kind, record.id))?.revision ?? null;
          const expectedRevision = expectedOf(index);
          return actualRevision === expectedRevision
            ? []
            : [{ kind: record.kind, id: record.id, expectedRevision, actualRevision }];
        });
      if (repos.length > 1) {
        const states = await Promise.all(repos.map((repo) => recordsOf(repo)));
        const conflicts = repos.flatMap((repo, index) => check(states[index] ?? new Map(), repo));
        if (conflicts.length > 0) return { ok: false, conflicts };
      }
      const conflicts: TaskRecordConflict[] = [];
      for (const repo of repos) {
        const result = await commit(repo, (all) => {
          const found = check(all, repo);
          if (found.length > 0) return { conflicts: found };
          return { delta: { writes: records.filter((record) => record.repo === repo), deletes: [] } };
        });
        if (!result.ok) conflicts.push(...result.conflicts);
      }
      return conflicts.length === 0 ? { ok: true } : { ok: false, conflicts };
    },
    async get(repo, kind, id) {
      ensureOpen();
      assertTaskRecordRepo(repo);
      assertTaskRecordKind(kind);
      assertTaskRecordId(id);
      return (await recordsOf(repo)).get(keyOf(kind, id));
    },
    async list(query) {
      ensureOpen();
      assertTaskRecordQuery(query);
      return selectTaskRecords((await recordsOf(query.repo, query.signal)).values(), query);
    },
    async search(query) {
      ensureOpen();
      assertTaskRecordSearch(query);
      return searchTaskRecords((await recordsOf(query.repo, query.signal)).values(), query);
    },
    async delete(repo, kind, id) {
      ensureOpen();
      assertTaskRecordRepo(repo);
      assertTaskRecordKind(kind);
      assertTaskRecordId(id);
      const result = await commit(repo, (all) =>
        all.has(keyOf(kind, id)) ? { delta: { writes: [], deletes: [{ kind, id }] } } : { nothing: true },
      );
      return result.ok && result.delta !== undefined;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (options.ownsConnection !== false) connection.close();
    },
  };
}
