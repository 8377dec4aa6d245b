// Why: verified memories kept natively in AgentCore. Each repository's memories are one
// collection (a chain of deltas, see collection.ts) giving `apply` its all-or-nothing
// compare-and-swap on revisions, and every memory is also a memory record in the repository's
// `/{actorId}/knowledge/` namespace (the layout AgentCore deployments use), written directly
// with batch calls so it is readable at once by the service's retrieval and by other tools.
import {
  assertDeleteArguments,
  assertRepo,
  compareNewestFirst,
  liveAtMs,
  MEMORY_STATUSES,
  MemoryIdSchema,
  type MemoryStatus,
  matchRecordText,
  normalizeDocumentPath,
  type RecordApplyResult,
  type RecordConflict,
  type RecordQuery,
  type RecordStats,
  type RecordWrite,
  RepomemError,
  scoreRecordText,
  selectRecords,
  subjectKey,
  TELEMETRY_EVENT_TYPES,
  type TelemetryEvent,
  TelemetryEventSchema,
  type TelemetryEventType,
  type VerifiedMemory,
  type VerifiedMemoryBackend,
  VerifiedMemorySchema,
} from '@repomem/core';
import { z } from 'zod';
import { type CollectionAddress, type CollectionView, commitCollection, readCollection } from './collection.js';
import type { AgentCoreConnection } from './connection.js';
import { hashedSessionId, namespaceOf, repositoryActorId } from './identifiers.js';
import { createRecords, deleteRecords, listRecords } from './records.js';

/** One delta of a repository's verified-memory collection. */
const DeltaSchema = z.object({
  writes: z.array(VerifiedMemorySchema),
  events: z.array(TelemetryEventSchema),
  /** Ids of memories removed (a reviewed quarantined memory); absent in older deltas. */
  deletes: z.array(MemoryIdSchema).optional(),
});
type Delta = z.infer<typeof DeltaSchema>;

/** Record metadata key holding the memory id of a materialised verified memory. */
export const KNOWLEDGE_ID_KEY = 'repomem.memory';

/** Options of {@link createAgentCoreVerifiedBackend}. */
export interface AgentCoreVerifiedBackendOptions {
  /** An open connection. */
  readonly connection: AgentCoreConnection;
  /** Close the connection with the backend (default true). */
  readonly ownsConnection?: boolean;
}

/** The native verified-memory backend on AgentCore. */
export interface AgentCoreVerifiedBackend extends VerifiedMemoryBackend {
  /** The namespace a repository's memories are materialised in (`/{actorId}/knowledge/`). */
  knowledgeNamespace(repo: string): string;
}

function zodProblem(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`).join('; ');
}

function emptyCounts<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}

interface RepoState {
  readonly records: Map<string, VerifiedMemory>;
  readonly events: TelemetryEvent[];
}

function foldDeltas(view: CollectionView<Delta>): RepoState {
  const records = new Map<string, VerifiedMemory>();
  const events: TelemetryEvent[] = [];
  for (const delta of view.deltas) {
    for (const record of delta.writes) records.set(record.id, record);
    for (const id of delta.deletes ?? []) records.delete(id);
    events.push(...delta.events);
  }
  return { records, events };
}

/**
 * Open the verified-memory backend on an AgentCore memory (all repositories; every query names
 * one). Nothing is sent until the first call.
 */
export function createAgentCoreVerifiedBackend(options: AgentCoreVerifiedBackendOptions): AgentCoreVerifiedBackend {
  const { connection } = options;
  let closed = false;
  const ensureOpen = (): void => {
    if (closed) throw new RepomemError('STORE_CLOSED', 'the agentcore verified-memory backend is closed');
  };
  const addressOf = (repo: string): CollectionAddress => ({
    session: { actorId: repositoryActorId(repo), sessionId: hashedSessionId('v', `verified:${repo}`) },
    name: `verified:${repo}`,
  });
  const knowledgeNamespace = (repo: string): string => namespaceOf([repositoryActorId(repo), 'knowledge']);
  const parse = (json: unknown): Delta => {
    const parsed = DeltaSchema.safeParse(json);
    if (!parsed.success)
      throw new RepomemError('INVALID_DOCUMENT', `invalid verified-memory delta: ${zodProblem(parsed.error)}`);
    return parsed.data;
  };
  const stateOf = async (repo: string): Promise<RepoState> =>
    foldDeltas(await readCollection(connection, addressOf(repo), parse));

  /** Replace the materialised records of `records` (best effort after the commit; the chain is the truth). */
  const materialise = async (repo: string, records: readonly VerifiedMemory[]): Promise<void> => {
    if (records.length === 0) return;
    const namespace = knowledgeNamespace(repo);
    // One filtered read per memory (metadata equality), not a read of the whole namespace.
    const existing = (
      await Promise.all(
        records.map((record) => listRecords(connection, { namespace }, { [KNOWLEDGE_ID_KEY]: record.id })),
      )
    ).flat();
    await createRecords(
      connection,
      records.map((record) => ({
        namespace,
        text: JSON.stringify(record),
        metadata: {
          [KNOWLEDGE_ID_KEY]: record.id,
          'repomem.status': record.status,
          'repomem.revision': String(record.revision),
        },
        at: new Date(record.refreshed_at),
      })),
    );
    await deleteRecords(
      connection,
      existing.map((record) => record.id),
    );
  };

  const applyToRepo = async (
    repo: string,
    writes: readonly RecordWrite[],
    events: readonly TelemetryEvent[],
  ): Promise<RecordApplyResult> => {
    const result = await commitCollection<Delta, RecordConflict[]>(connection, addressOf(repo), parse, (view) => {
      const { records } = foldDeltas(view);
      const conflicts: RecordConflict[] = [];
      for (const write of writes) {
        const actualRevision = records.get(write.record.id)?.revision ?? null;
        if (actualRevision !== write.expectedRevision) {
          conflicts.push({ id: write.record.id, expectedRevision: write.expectedRevision, actualRevision });
        }
      }
      if (conflicts.length > 0) return { kind: 'refuse', refusal: conflicts };
      return { kind: 'append', delta: { writes: writes.map((write) => write.record), events: [...events] } };
    });
    if (!result.ok) return { ok: false, conflicts: result.refusal };
    await materialise(
      repo,
      writes.map((write) => write.record),
    );
    return { ok: true };
  };

  const backend: AgentCoreVerifiedBackend = {
    name: 'agentcore',
    knowledgeNamespace,
    async apply(writes, events): Promise<RecordApplyResult> {
      ensureOpen();
      const records = writes.map((write) => {
        const parsed = VerifiedMemorySchema.safeParse(write.record);
        if (!parsed.success)
          throw new RepomemError('INVALID_ARGUMENT', `invalid memory record: ${zodProblem(parsed.error)}`);
        const expected = write.expectedRevision;
        if (expected !== null && (!Number.isSafeInteger(expected) || expected < 1)) {
          throw new RepomemError('INVALID_ARGUMENT', 'expectedRevision must be null or a positive integer');
        }
        return { record: parsed.data, expectedRevision: expected };
      });
      const seen = new Set<string>();
      for (const { record } of records) {
        const key = `${record.repo}/${record.id}`;
        if (seen.has(key))
          throw new RepomemError('INVALID_ARGUMENT', `memory ${record.id} is written twice in one apply`);
        seen.add(key);
      }
      const parsedEvents = events.map((event) => {
        const parsed = TelemetryEventSchema.safeParse(event);
        if (!parsed.success)
          throw new RepomemError('INVALID_ARGUMENT', `invalid telemetry event: ${zodProblem(parsed.error)}`);
        return parsed.data;
      });
      const repos = [
        ...new Set([...records.map((write) => write.record.repo), ...parsedEvents.map((event) => event.repo)]),
      ].sort();
      for (const repo of repos) repositoryActorId(repo);
      if (repos.length === 0) return { ok: true };
      // Check every repository first, so a stale revision in one writes nothing anywhere.
      const states = await Promise.all(repos.map((repo) => stateOf(repo)));
      const conflicts: RecordConflict[] = [];
      for (const write of records) {
        const state = states[repos.indexOf(write.record.repo)];
        const actualRevision = state?.records.get(write.record.id)?.revision ?? null;
        if (actualRevision !== write.expectedRevision) {
          conflicts.push({ id: write.record.id, expectedRevision: write.expectedRevision, actualRevision });
        }
      }
      if (conflicts.length > 0) return { ok: false, conflicts };
      const all: RecordConflict[] = [];
      for (const repo of repos) {
        const result = await applyToRepo(
          repo,
          records.filter((write) => write.record.repo === repo),
          parsedEvents.filter((event) => event.repo === repo),
        );
        if (!result.ok) all.push(...result.conflicts);
      }
      return all.length === 0 ? { ok: true } : { ok: false, conflicts: all };
    },
    async delete(repo, id, expectedRevision) {
      ensureOpen();
      assertRepo(repo);
      assertDeleteArguments(id, expectedRevision);
      const result = await commitCollection<Delta, false>(connection, addressOf(repo), parse, (view) => {
        const current = foldDeltas(view).records.get(id);
        if (current?.revision !== expectedRevision) return { kind: 'refuse', refusal: false };
        return { kind: 'append', delta: { writes: [], events: [], deletes: [id] } };
      });
      if (!result.ok) return false;
      // Best effort, like materialise: the chain is the truth.
      const namespace = knowledgeNamespace(repo);
      const materialised = await listRecords(connection, { namespace }, { [KNOWLEDGE_ID_KEY]: id });
      await deleteRecords(
        connection,
        materialised.map((record) => record.id),
      );
      return true;
    },
    async get(repo, id) {
      ensureOpen();
      assertRepo(repo);
      if (typeof id !== 'string') return undefined;
      return (await stateOf(repo)).records.get(id);
    },
    async recent(query) {
      ensureOpen();
      assertRepo(query.repo);
      return selectRecords([...(await stateOf(query.repo)).records.values()], query);
    },
    async byPath(query) {
      ensureOpen();
      assertRepo(query.repo);
      const path = normalizeDocumentPath(query.path);
      const all = [...(await stateOf(query.repo)).records.values()];
      return selectRecords(
        all.filter((record) => record.citations.some((citation) => citation.path === path)),
        query,
      );
    },
    async bySubject(query) {
      ensureOpen();
      assertRepo(query.repo);
      const all = [...(await stateOf(query.repo)).records.values()];
      return selectRecords(
        all.filter((record) => subjectKey(record.subject) === query.subjectKey),
        query,
      );
    },
    async search(query: RecordQuery & { readonly text: string }) {
      ensureOpen();
      assertRepo(query.repo);
      if (typeof query.text !== 'string') throw new RepomemError('INVALID_ARGUMENT', 'search text must be a string');
      const all = [...(await stateOf(query.repo)).records.values()];
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
    async appendEvents(list) {
      ensureOpen();
      const result = await backend.apply([], list);
      if (!result.ok) throw new RepomemError('CONFLICT', 'telemetry append conflicted');
    },
    async events(query) {
      ensureOpen();
      assertRepo(query.repo);
      let found = (await stateOf(query.repo)).events.filter(
        (event) => query.memoryId === undefined || event.memory_id === query.memoryId,
      );
      if (query.limit !== undefined && found.length > query.limit) found = found.slice(found.length - query.limit);
      return found;
    },
    async stats(query): Promise<RecordStats> {
      ensureOpen();
      assertRepo(query.repo);
      const state = await stateOf(query.repo);
      const byStatus = emptyCounts<MemoryStatus>(MEMORY_STATUSES);
      const live = query.liveAt === undefined ? undefined : liveAtMs(query.liveAt);
      let expired = 0;
      for (const record of state.records.values()) {
        byStatus[record.status] += 1;
        if (live !== undefined && record.status === 'active' && Date.parse(record.expires_at) <= live) expired += 1;
      }
      const counts = emptyCounts<TelemetryEventType>(TELEMETRY_EVENT_TYPES);
      for (const event of state.events) counts[event.type] += 1;
      return { repo: query.repo, byStatus, expired, events: counts };
    },
    async close() {
      if (closed) return;
      closed = true;
      if (options.ownsConnection !== false) connection.close();
    },
  };
  return backend;
}
