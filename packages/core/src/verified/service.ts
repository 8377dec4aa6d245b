// Why: seed 003's memory lifecycle (store with citations, get-recent, verify before use, refresh,
// invalidate, supersede with a chain, telemetry) and seed 004's contradiction and expiry rules,
// written once over the small VerifiedMemoryBackend so every store behaves the same. Every change
// is a compare-and-swap on the record revision, retried on conflict, so concurrent agents never
// lose each other's updates.
import { randomUUID } from 'node:crypto';
import type { CitationReader } from '../citations/reader.js';
import { snippetHash } from '../citations/snippet-hash.js';
import type { CitationCheck } from '../citations/verification-types.js';
import { anchoredCitation, checkCitation, verifyCitations } from '../citations/verify.js';
import { RepomemError } from '../errors.js';
import { type BranchScope, FALLBACK_DEFAULT_BRANCH, type ScopeVerdict, scopeVerdicts } from '../scope/branch-scope.js';
import { resolveBranchScope } from '../scope/resolve-scope.js';
import { listInScope, type ScopedList } from '../scope/scoped-list.js';
import { assertQueryLength, assertQueryTerms } from '../search/query-limits.js';
import { tokenizeQuery } from '../search/tokenizer.js';
import { acquireKeyedMutex } from '../store/keyed-mutex.js';
import { normalizeDocumentPath } from '../store/paths.js';
import type { RecordWrite, VerifiedMemoryBackend } from './backend.js';
import { type ContradictionKey, contradictionKey, contradicts, newestCreated } from './contradictions.js';
import { checkMemoryImpact } from './impact.js';
import { branchLine, type LearnedOn } from './learned-on.js';
import {
  type Citation,
  MAX_NOTE_CHARS,
  MemoryIdSchema,
  memoryMaxAgeMs,
  type TelemetryEvent,
  type TelemetryEventType,
  type VerifiedMemory,
} from './record.js';
import {
  type ParsedStoreInput,
  parseCitation,
  parseCitations,
  parseDetails,
  parseLimit,
  parseMemoryId,
  parseNote,
  parseRepo,
  parseStoreInput,
} from './service-input.js';
import type {
  MemoryChangeOutcome,
  RecallResult,
  ScopeOptions,
  StoreOutcome,
  SupersedeOutcome,
  VerifiedMemoryOptions,
  VerifiedMemoryService,
  VerifiedMemoryStats,
  VerifyOutcome,
} from './service-types.js';

/** Default number of memories `getRecent`, `search` and `recall` consider. */
export const DEFAULT_RECALL_LIMIT = 50;
/** Largest `limit` accepted by `getRecent`, `search` and `recall`. */
export const MAX_RECALL_LIMIT = 1000;
/** Attempts of one compare-and-swap change before `CONFLICT` is thrown. */
const MAX_ATTEMPTS = 20;

const backendIds = new WeakMap<VerifiedMemoryBackend, string>();
function backendId(backend: VerifiedMemoryBackend): string {
  let id = backendIds.get(backend);
  if (id === undefined) {
    id = randomUUID();
    backendIds.set(backend, id);
  }
  return id;
}

function sameCitations(a: readonly Citation[], b: readonly Citation[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function conflictError(what: string): RepomemError {
  return new RepomemError('CONFLICT', `${what} kept conflicting with concurrent writers (${MAX_ATTEMPTS} attempts)`);
}

/** Outcome of checking a new memory's citations. */
type CitationGate =
  | { readonly ok: true; readonly citations: Citation[] }
  | { readonly ok: false; readonly checks: readonly CitationCheck[] };

/**
 * Open the verified-memory service (seed 003) over `options.backend`.
 *
 * - `store`: input validated (`INVALID_ARGUMENT`, nothing written); with a citation reader every
 *   citation is checked now (any invalid or unavailable check → `rejected`), relocated citations
 *   are re-anchored and missing `snippet_hash`es filled from the cited lines; the memory expires
 *   after `maxAgeDays` (default 28) unless verified and used again. Active memories with the same
 *   subject key and scope key are superseded by it in the same atomic write (seed 004).
 * - `getRecent`/`search`/`searchByPath`: active, unexpired memories only; `getRecent` emits
 *   `retrieved` for each.
 * - `recall`: get-recent → verify each → re-anchor moved citations, refresh and return the valid
 *   ones; invalidate those with an invalid citation; leave those that cannot be verified now
 *   (reader unavailable) untouched and unreturned. Requires a citation reader (`UNSUPPORTED`).
 * - Every event is stored, then passed to `onEvent` (a throwing subscriber is ignored).
 * - Concurrent writers: compare-and-swap on `revision`, retried (then `CONFLICT`); stores of the
 *   same subject and scope are serialised in-process, and a race between processes is settled
 *   after the write (the most recently created memory stays active).
 */
export function openVerifiedMemory(options: VerifiedMemoryOptions): VerifiedMemoryService {
  if (options === null || typeof options !== 'object' || options.backend === undefined) {
    throw new RepomemError('INVALID_ARGUMENT', 'openVerifiedMemory expects { backend }');
  }
  const { backend, citations: reader, onEvent } = options;
  const maxAgeMs = memoryMaxAgeMs(options.maxAgeDays);
  const clock = options.now ?? (() => new Date());
  const defaultBranch = options.defaultBranch;
  const generateId = options.newId ?? randomUUID;

  const now = (): Date => {
    const date = clock();
    if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
      throw new RepomemError('INVALID_ARGUMENT', 'the now() option returned an invalid date');
    }
    return date;
  };
  const expiresFrom = (date: Date): string => new Date(date.getTime() + maxAgeMs).toISOString();
  const newId = (): string => {
    const parsed = MemoryIdSchema.safeParse(generateId());
    if (!parsed.success) throw new RepomemError('INVALID_ARGUMENT', 'the newId() option must return a lowercase UUID');
    return parsed.data;
  };
  const event = (
    type: TelemetryEventType,
    memory: VerifiedMemory,
    at: Date,
    details?: Record<string, unknown>,
  ): TelemetryEvent => ({
    type,
    memory_id: memory.id,
    repo: memory.repo,
    at: at.toISOString(),
    ...(details === undefined ? {} : { details }),
  });

  const notify = (events: readonly TelemetryEvent[]): void => {
    if (onEvent === undefined) return;
    for (const item of events) {
      try {
        const returned: unknown = onEvent(item);
        if (returned instanceof Promise) returned.catch(() => {});
      } catch {
        // A subscriber's failure must never break the memory operation that produced the event.
      }
    }
  };
  const commit = async (writes: readonly RecordWrite[], events: readonly TelemetryEvent[]): Promise<boolean> => {
    const result = await backend.apply(writes, events);
    if (result.ok) notify(events);
    return result.ok;
  };
  const requireReader = (operation: string): CitationReader => {
    if (reader === undefined) {
      throw new RepomemError(
        'UNSUPPORTED',
        `${operation} needs a citation reader: open the service with openVerifiedMemory({ backend, citations: <reader> })`,
      );
    }
    return reader;
  };
  /** The branch scope of a read (see `resolveBranchScope`); throws `INVALID_ARGUMENT` for a bad name. */
  const scopeOf = (repo: string, scope: ScopeOptions | undefined): Promise<BranchScope> => {
    if (scope !== undefined && (scope === null || typeof scope !== 'object')) {
      throw new RepomemError('INVALID_ARGUMENT', 'scope options must be an object { ref?, branch? }');
    }
    return resolveBranchScope({ ref: scope?.ref, branch: scope?.branch, defaultBranch }, reader, repo);
  };
  /** Records of `read` in `scope`, read in growing pages until `limit` are found. */
  const inScope = (
    repo: string,
    scope: BranchScope,
    limit: number,
    read: (limit: number) => Promise<VerifiedMemory[]>,
  ): Promise<ScopedList<VerifiedMemory>> =>
    listInScope(read, limit, (records) => scopeVerdicts(records, scope, reader, repo));

  const lockKey = (repo: string, key: ContradictionKey): string =>
    JSON.stringify(['verified-memory', backendId(backend), repo, key.subject, key.scope]);

  async function gateCitations(repo: string, citations: Citation[]): Promise<CitationGate> {
    if (reader === undefined) return { ok: true, citations };
    const result = await verifyCitations(reader, repo, citations);
    if (!result.valid) return { ok: false, checks: result.citations };
    const accepted = result.citations.map((check) => {
      if (check.kind !== 'valid' && check.kind !== 'relocated') return check.citation;
      const citation = anchoredCitation(check);
      if (citation.snippet_hash !== undefined) return citation;
      return { ...citation, snippet_hash: snippetHash(check.content) };
    });
    return { ok: true, citations: accepted };
  }

  function buildRecord(input: ParsedStoreInput, citations: Citation[], id: string, at: Date): VerifiedMemory {
    const stamp = at.toISOString();
    return {
      id,
      repo: input.repo,
      subject: input.subject,
      fact: input.fact,
      scope: input.scope ?? null,
      citations,
      reason: input.reason ?? null,
      created_by: input.created_by ?? null,
      created_at: stamp,
      refreshed_at: stamp,
      expires_at: expiresFrom(at),
      status: 'active',
      superseded_by: null,
      supersedes: null,
      invalid_reason: null,
      verification_count: 0,
      revision: 1,
      ...(input.learned_on === undefined ? {} : { learned_on: input.learned_on }),
    };
  }

  const supersededBy = (old: VerifiedMemory, replacement: string): VerifiedMemory => ({
    ...old,
    status: 'superseded',
    superseded_by: replacement,
    revision: old.revision + 1,
  });

  /**
   * Active memories with the same subject and scope on the same branch line as `learned` (see
   * `branchLine`): a memory learned on a branch never supersedes one of the default branch or of
   * another branch.
   */
  async function activeContradicting(
    repo: string,
    key: ContradictionKey,
    learned: LearnedOn | undefined,
  ): Promise<VerifiedMemory[]> {
    const found = (await backend.bySubject({ repo, subjectKey: key.subject, statuses: ['active'] })).filter((memory) =>
      contradicts(memory, key),
    );
    if (learned === undefined && found.every((memory) => memory.learned_on === undefined)) return found;
    const names = defaultBranch === undefined ? await reader?.branches?.(repo).catch(() => undefined) : undefined;
    const shared = defaultBranch ?? names?.defaultBranch ?? FALLBACK_DEFAULT_BRANCH;
    const line = branchLine(learned, shared);
    return found.filter((memory) => branchLine(memory.learned_on, shared) === line);
  }

  /**
   * Settle a race between writers of different processes (or services) that both stored a
   * memory for the same subject and scope: the most recently created stays active.
   */
  async function reconcile(repo: string, key: ContradictionKey, learned: LearnedOn | undefined): Promise<void> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const active = await activeContradicting(repo, key, learned);
      const winner = newestCreated(active);
      if (winner === undefined || active.length <= 1) return;
      const losers = active.filter((memory) => memory.id !== winner.id);
      const at = now();
      const writes: RecordWrite[] = losers.map((loser) => ({
        record: supersededBy(loser, winner.id),
        expectedRevision: loser.revision,
      }));
      if (winner.supersedes === null) {
        const latestLoser = newestCreated(losers);
        writes.push({
          record: { ...winner, supersedes: latestLoser?.id ?? null, revision: winner.revision + 1 },
          expectedRevision: winner.revision,
        });
      }
      const events = losers.map((loser) => event('superseded', loser, at, { superseded_by: winner.id }));
      if (await commit(writes, events)) return;
    }
    // Still racing: the next write of this subject settles it again.
  }

  async function withSubjectLock<T>(repo: string, key: ContradictionKey, body: () => Promise<T>): Promise<T> {
    const release = await acquireKeyedMutex(lockKey(repo, key));
    try {
      return await body();
    } finally {
      release();
    }
  }

  async function store(input: Parameters<VerifiedMemoryService['store']>[0]): Promise<StoreOutcome> {
    const parsed = parseStoreInput(input);
    const gate = await gateCitations(parsed.repo, parsed.citations);
    if (!gate.ok) return { kind: 'rejected', checks: gate.checks };
    const key = contradictionKey(parsed);
    const id = newId();
    return withSubjectLock(parsed.repo, key, async () => {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        const at = now();
        const contradicted = await activeContradicting(parsed.repo, key, parsed.learned_on);
        const record = {
          ...buildRecord(parsed, gate.citations, id, at),
          supersedes: newestCreated(contradicted)?.id ?? null,
        };
        const replaced = contradicted.map((old) => supersededBy(old, id));
        const writes: RecordWrite[] = [
          { record, expectedRevision: null },
          ...contradicted.map((old, index) => ({
            record: replaced[index] as VerifiedMemory,
            expectedRevision: old.revision,
          })),
        ];
        const events = [
          event('created', record, at, record.supersedes === null ? undefined : { supersedes: record.supersedes }),
          ...contradicted.map((old) => event('superseded', old, at, { superseded_by: id })),
        ];
        if (await commit(writes, events)) {
          await reconcile(parsed.repo, key, parsed.learned_on);
          const stored = (await backend.get(parsed.repo, id)) ?? record;
          return { kind: 'stored', memory: stored, superseded: replaced };
        }
      }
      throw conflictError(`storing memory "${parsed.subject}"`);
    });
  }

  /** Compare-and-swap change of one active memory, re-read and retried on conflict. */
  async function change(
    repoInput: string,
    idInput: string,
    build: (current: VerifiedMemory, at: Date) => { record: VerifiedMemory; events: TelemetryEvent[] },
  ): Promise<MemoryChangeOutcome> {
    const repo = parseRepo(repoInput);
    const id = parseMemoryId(idInput);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const current = await backend.get(repo, id);
      if (current === undefined) return { kind: 'not_found', id };
      if (current.status !== 'active') return { kind: 'not_active', memory: current };
      const { record, events } = build(current, now());
      if (await commit([{ record, expectedRevision: current.revision }], events))
        return { kind: 'changed', memory: record };
    }
    throw conflictError(`changing memory ${id}`);
  }

  const refreshed = (current: VerifiedMemory, at: Date, citations = current.citations): VerifiedMemory => ({
    ...current,
    citations,
    refreshed_at: at.toISOString(),
    verification_count: current.verification_count + 1,
    expires_at: expiresFrom(at),
    revision: current.revision + 1,
  });
  const invalidated = (current: VerifiedMemory, reason: string): VerifiedMemory => ({
    ...current,
    status: 'invalid',
    invalid_reason: reason,
    revision: current.revision + 1,
  });

  /**
   * Apply `build` to `memory` as recall saw it; if it changed meanwhile, retry on the new revision
   * only while it is still active with the same citations (what was verified). `undefined` = skipped.
   */
  async function updateVerified(
    memory: VerifiedMemory,
    build: (current: VerifiedMemory, at: Date) => { record: VerifiedMemory; events: TelemetryEvent[] },
  ): Promise<VerifiedMemory | undefined> {
    let current: VerifiedMemory | undefined = memory;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      if (current === undefined || current.status !== 'active' || !sameCitations(current.citations, memory.citations)) {
        return undefined;
      }
      const { record, events } = build(current, now());
      if (await commit([{ record, expectedRevision: current.revision }], events)) return record;
      current = await backend.get(memory.repo, memory.id);
    }
    throw conflictError(`recalling memory ${memory.id}`);
  }

  /** Active, live memories in `scope`, newest first; emits `retrieved` for those returned. */
  async function recentInScope(repo: string, limit: number, scope: BranchScope): Promise<ScopedList<VerifiedMemory>> {
    const at = now();
    const listed = await inScope(repo, scope, limit, (page) =>
      backend.recent({ repo, statuses: ['active'], liveAt: at.toISOString(), limit: page }),
    );
    const memories = listed.inScope;
    if (memories.length > 0) {
      const events = memories.map((memory) => event('retrieved', memory, at));
      await backend.appendEvents(events);
      notify(events);
    }
    return listed;
  }

  async function getRecent(repoInput: string, limitInput?: number, scope?: ScopeOptions): Promise<VerifiedMemory[]> {
    const repo = parseRepo(repoInput);
    const limit = parseLimit(limitInput, DEFAULT_RECALL_LIMIT, MAX_RECALL_LIMIT);
    return (await recentInScope(repo, limit, await scopeOf(repo, scope))).inScope;
  }

  function failureReason(checks: readonly CitationCheck[]): string {
    const failures = checks.flatMap((check) => (check.kind === 'invalid' ? [check.message] : []));
    return truncate(`citation check failed: ${failures.join('; ')}`, MAX_NOTE_CHARS);
  }

  /**
   * Refresh every verified memory in one atomic write (one transaction instead of one per memory);
   * when another writer changed one meanwhile, each is retried on its own as `updateVerified` does.
   */
  async function refreshAll(
    valid: readonly {
      memory: VerifiedMemory;
      build: (current: VerifiedMemory, at: Date) => { record: VerifiedMemory; events: TelemetryEvent[] };
    }[],
  ): Promise<VerifiedMemory[]> {
    if (valid.length === 0) return [];
    const at = now();
    const built = valid.map(({ memory, build }) => build(memory, at));
    const writes = built.map(({ record }, index) => ({
      record,
      expectedRevision: (valid[index] as { memory: VerifiedMemory }).memory.revision,
    }));
    if (
      await commit(
        writes,
        built.flatMap(({ events }) => events),
      )
    )
      return built.map(({ record }) => record);
    const refreshedOnes: VerifiedMemory[] = [];
    for (const { memory, build } of valid) {
      const updated = await updateVerified(memory, build);
      if (updated !== undefined) refreshedOnes.push(updated);
    }
    return refreshedOnes;
  }

  async function recall(repoInput: string, recallOptions: Parameters<VerifiedMemoryService['recall']>[1] = {}) {
    const citationReader = requireReader('recall');
    const repo = parseRepo(repoInput);
    if (recallOptions === null || typeof recallOptions !== 'object') {
      throw new RepomemError('INVALID_ARGUMENT', 'recall options must be an object { limit?, ref?, branch? }');
    }
    const ref = recallOptions.ref;
    const scope = await scopeOf(repo, recallOptions);
    const limit = parseLimit(recallOptions.limit, DEFAULT_RECALL_LIMIT, MAX_RECALL_LIMIT);
    const listed = await recentInScope(repo, limit, scope);
    const memories = listed.inScope;
    const results = await Promise.all(
      memories.map((memory) => verifyCitations(citationReader, repo, memory.citations, ref)),
    );
    const result: {
      memories: VerifiedMemory[];
      invalidated: { memory: VerifiedMemory; checks: readonly CitationCheck[] }[];
      unverified: { memory: VerifiedMemory; checks: readonly CitationCheck[] }[];
      outOfScope: number;
    } = { memories: [], invalidated: [], unverified: [], outOfScope: listed.outOfScope.length };
    /** Memories verified valid, with how to refresh each (written together below). */
    const valid: {
      memory: VerifiedMemory;
      build: (current: VerifiedMemory, at: Date) => { record: VerifiedMemory; events: TelemetryEvent[] };
    }[] = [];
    for (const [index, memory] of memories.entries()) {
      const verification = results[index];
      if (verification === undefined) continue;
      const checks = verification.citations;
      if (verification.invalid_count > 0) {
        const reason = failureReason(checks);
        const failures = checks.flatMap((check) =>
          check.kind === 'invalid'
            ? [
                {
                  path: check.citation.path,
                  line_start: check.citation.line_start,
                  line_end: check.citation.line_end,
                  reason: check.reason,
                },
              ]
            : [],
        );
        const updated = await updateVerified(memory, (current, at) => ({
          record: invalidated(current, reason),
          events: [event('verified_invalid', current, at, { reason, failures })],
        }));
        if (updated !== undefined) result.invalidated.push({ memory: updated, checks });
      } else if (verification.unavailable_count > 0) {
        result.unverified.push({ memory, checks });
      } else {
        const anchored = checks.map((check) =>
          check.kind === 'valid' || check.kind === 'relocated' ? anchoredCitation(check) : check.citation,
        );
        const relocated = checks.filter((check) => check.kind === 'relocated').length;
        valid.push({
          memory,
          build: (current, at) => ({
            record: refreshed(current, at, anchored),
            events: [
              event('verified_valid', current, at, {
                relocated,
                ...(ref === undefined ? {} : { ref }),
              }),
              event('refreshed', current, at),
            ],
          }),
        });
      }
    }
    result.memories.push(...(await refreshAll(valid)));
    return result satisfies RecallResult;
  }

  async function verifyOne(
    repoInput: string,
    idInput: string,
    ref: string | undefined,
    scopeInput: Pick<ScopeOptions, 'branch'> | undefined,
  ): Promise<VerifyOutcome> {
    const citationReader = requireReader('verify');
    const repo = parseRepo(repoInput);
    const id = parseMemoryId(idInput);
    const scope = await scopeOf(repo, {
      ...(ref === undefined ? {} : { ref }),
      ...(scopeInput?.branch === undefined ? {} : { branch: scopeInput.branch }),
    });
    const memory = await backend.get(repo, id);
    if (memory === undefined) return { kind: 'not_found', id };
    if (memory.status !== 'active') return { kind: 'not_active', memory };
    const [verdict] = await scopeVerdicts([memory], scope, citationReader, repo);
    if (verdict !== undefined && verdict.kind === 'out_of_scope') {
      return { kind: 'out_of_scope', memory, verdict: verdict as ScopeVerdict & { kind: 'out_of_scope' } };
    }
    const verification = await verifyCitations(citationReader, repo, memory.citations, ref);
    const checks = verification.citations;
    if (verification.unavailable_count > 0 && verification.invalid_count === 0) {
      return { kind: 'unverified', memory, checks };
    }
    const valid = verification.invalid_count === 0;
    const updated = valid
      ? await updateVerified(memory, (current, at) => ({
          record: refreshed(
            current,
            at,
            checks.map((check) =>
              check.kind === 'valid' || check.kind === 'relocated' ? anchoredCitation(check) : check.citation,
            ),
          ),
          events: [
            event('verified_valid', current, at, {
              relocated: checks.filter((check) => check.kind === 'relocated').length,
              ...(ref === undefined ? {} : { ref }),
            }),
            event('refreshed', current, at),
          ],
        }))
      : await updateVerified(memory, (current, at) => {
          const reason = failureReason(checks);
          return { record: invalidated(current, reason), events: [event('verified_invalid', current, at, { reason })] };
        });
    if (updated !== undefined) return { kind: valid ? 'valid' : 'invalidated', memory: updated, checks };
    // Changed meanwhile by another writer: report what is stored now, changing nothing.
    const stored = (await backend.get(repo, id)) ?? memory;
    return stored.status === 'active'
      ? { kind: 'unverified', memory: stored, checks }
      : { kind: 'not_active', memory: stored };
  }

  async function supersede(
    repoInput: string,
    idInput: string,
    corrected: Parameters<VerifiedMemoryService['supersede']>[2],
  ): Promise<SupersedeOutcome> {
    const repo = parseRepo(repoInput);
    const id = parseMemoryId(idInput);
    if (corrected === null || typeof corrected !== 'object') {
      throw new RepomemError('INVALID_ARGUMENT', 'invalid memory: expected an object');
    }
    const parsed = parseStoreInput({ ...corrected, repo });
    const first = await backend.get(repo, id);
    if (first === undefined) return { kind: 'not_found', id };
    if (first.status !== 'active') return { kind: 'not_active', memory: first };
    const gate = await gateCitations(repo, parsed.citations);
    if (!gate.ok) return { kind: 'rejected', checks: gate.checks };
    const key = contradictionKey(parsed);
    const newIdValue = newId();
    return withSubjectLock(repo, key, async () => {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        const old = await backend.get(repo, id);
        if (old === undefined) return { kind: 'not_found', id };
        if (old.status !== 'active') return { kind: 'not_active', memory: old };
        const at = now();
        // A correction without its own learned_on stays where the memory it corrects was learned.
        const learned = parsed.learned_on ?? old.learned_on;
        const others = (await activeContradicting(repo, key, learned)).filter((memory) => memory.id !== old.id);
        const replacement = {
          ...buildRecord(parsed, gate.citations, newIdValue, at),
          ...(learned === undefined ? {} : { learned_on: learned }),
          supersedes: old.id,
        };
        const previous = supersededBy(old, newIdValue);
        const writes: RecordWrite[] = [
          { record: replacement, expectedRevision: null },
          { record: previous, expectedRevision: old.revision },
          ...others.map((other) => ({ record: supersededBy(other, newIdValue), expectedRevision: other.revision })),
        ];
        const events = [
          event('corrected', old, at, { replacement: newIdValue }),
          event('created', replacement, at, { supersedes: old.id }),
          event('superseded', old, at, { superseded_by: newIdValue }),
          ...others.map((other) => event('superseded', other, at, { superseded_by: newIdValue })),
        ];
        if (await commit(writes, events)) {
          await reconcile(repo, key, parsed.learned_on ?? first.learned_on);
          const stored = (await backend.get(repo, newIdValue)) ?? replacement;
          return { kind: 'superseded', previous, replacement: stored };
        }
      }
      throw conflictError(`superseding memory ${id}`);
    });
  }

  const service: VerifiedMemoryService = {
    store,
    getRecent,
    async searchByPath(repoInput, path, scopeInput) {
      const repo = parseRepo(repoInput);
      const normalized = normalizeDocumentPath(path);
      const scope = await scopeOf(repo, scopeInput);
      const found = await backend.byPath({ repo, path: normalized, statuses: ['active'], liveAt: now().toISOString() });
      return (await inScope(repo, scope, found.length, async () => found)).inScope;
    },
    async search(repoInput, query, limitInput, scopeInput) {
      const repo = parseRepo(repoInput);
      if (typeof query !== 'string') throw new RepomemError('INVALID_ARGUMENT', 'invalid query: expected a string');
      // The same bounds as document search, before any backend builds a query from it.
      assertQueryLength(query);
      assertQueryTerms(tokenizeQuery(query));
      const limit = parseLimit(limitInput, DEFAULT_RECALL_LIMIT, MAX_RECALL_LIMIT);
      const scope = await scopeOf(repo, scopeInput);
      const liveAt = now().toISOString();
      const listed = await inScope(repo, scope, limit, (page) =>
        backend.search({ repo, text: query, statuses: ['active'], liveAt, limit: page }),
      );
      return listed.inScope;
    },
    async get(repoInput, id) {
      return backend.get(parseRepo(repoInput), parseMemoryId(id));
    },
    refresh(repo, id) {
      return change(repo, id, (current, at) => ({
        record: refreshed(current, at),
        events: [event('refreshed', current, at)],
      }));
    },
    async invalidate(repo, id, reasonInput) {
      const reason = parseNote(reasonInput, 'reason');
      return change(repo, id, (current, at) => ({
        record: invalidated(current, reason),
        events: [event('verified_invalid', current, at, { reason })],
      }));
    },
    supersede,
    async logApplied(repo, id, detailsInput) {
      const details = parseDetails(detailsInput);
      return change(repo, id, (current, at) => ({
        record: { ...current, expires_at: expiresFrom(at), revision: current.revision + 1 },
        events: [event('applied', current, at, details)],
      }));
    },
    async readCitation(repoInput, citation, ref) {
      const citationReader = requireReader('readCitation');
      return checkCitation(citationReader, parseRepo(repoInput), parseCitation(citation), ref);
    },
    async verifyCitations(repoInput, citations, ref) {
      const citationReader = requireReader('verifyCitations');
      return verifyCitations(citationReader, parseRepo(repoInput), parseCitations(citations), ref);
    },
    recall,
    verify: verifyOne,
    async impact(repoInput, impactOptions) {
      const citationReader = requireReader('impact');
      if (impactOptions === null || typeof impactOptions !== 'object') {
        throw new RepomemError('INVALID_ARGUMENT', 'impact expects { base, head? }');
      }
      return checkMemoryImpact({
        backend,
        reader: citationReader,
        repo: parseRepo(repoInput),
        base: impactOptions.base,
        ...(impactOptions.head === undefined ? {} : { head: impactOptions.head }),
        now,
      });
    },
    async stats(repoInput): Promise<VerifiedMemoryStats> {
      const repo = parseRepo(repoInput);
      const counts = await backend.stats({ repo, liveAt: now().toISOString() });
      const valid = counts.events.verified_valid;
      const invalid = counts.events.verified_invalid;
      return { ...counts, verificationSuccessRate: valid + invalid === 0 ? null : valid / (valid + invalid) };
    },
    async events(repoInput, eventOptions = {}) {
      const repo = parseRepo(repoInput);
      const memoryId = eventOptions.memoryId === undefined ? undefined : parseMemoryId(eventOptions.memoryId);
      const limit =
        eventOptions.limit === undefined ? undefined : parseLimit(eventOptions.limit, 1, Number.MAX_SAFE_INTEGER);
      return backend.events({
        repo,
        ...(memoryId === undefined ? {} : { memoryId }),
        ...(limit === undefined ? {} : { limit }),
      });
    },
    close: () => backend.close(),
  };
  return service;
}
