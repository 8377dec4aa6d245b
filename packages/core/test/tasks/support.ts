// Why: the task-memory tests share a fresh document backend on the in-memory store, a fixed
// clock, review-rule records in the rules module's shape, and a backend wrapper that makes one
// kind hang or fail (the real backend underneath answers everything else).
import {
  createDocumentTaskRecordBackend,
  createInMemoryStore,
  ruleRecordId,
  ruleToRecord,
  type TaskRecordBackend,
  type TaskRecordKind,
} from '../../src/index.js';

/** The repository of the tests. */
export const REPO = 'acme/app';

/** A fresh, empty backend. */
export function freshBackend(): TaskRecordBackend {
  return createDocumentTaskRecordBackend(createInMemoryStore());
}

/** A clock starting at 2026-03-01T00:00:00Z, one minute per call. */
export function minuteClock(): () => Date {
  let minute = 0;
  return () => new Date(Date.UTC(2026, 2, 1) + minute++ * 60_000);
}

/** Store an active review rule taught by `reviewer` (an OWNER unless said otherwise). */
export async function storeRule(
  backend: TaskRecordBackend,
  rule: string,
  options: { scope?: string; weight?: number; pr?: number; reviewer?: string; status?: 'active' | 'superseded' } = {},
): Promise<string> {
  const id = ruleRecordId(rule, options.scope);
  const record = ruleToRecord(
    REPO,
    id,
    {
      rule,
      ...(options.scope === undefined ? {} : { scope: options.scope }),
      source: 'review',
      authority: 'owner',
      weight: options.weight ?? 1,
      status: options.status ?? 'active',
      provenance: {
        pr: options.pr ?? 42,
        reviewer: options.reviewer ?? 'alice',
        association: 'OWNER',
        extracted_at: '2026-02-01T00:00:00.000Z',
        prompt_version: 'manual',
      },
      confirmations: [],
      supersedes: [],
      tasks_since_retrieved: 0,
    },
    1,
    '2026-02-01T00:00:00.000Z',
  );
  const result = await backend.apply([{ record, expectedRevision: null }]);
  if (!result.ok) throw new Error('rule not stored');
  return id;
}

/** How a wrapped kind misbehaves. */
export type Fault = { readonly kind: 'hang' } | { readonly kind: 'throw'; readonly error: unknown };

/** Signals the wrapped reads were given and saw aborted (a well-behaved network backend stops then). */
export interface FaultLog {
  aborted: number;
}

/**
 * `backend` whose reads (list, search, get) of `kind` misbehave as `fault` says. A hanging list
 * or search stops (rejects with the signal's reason) when its query's signal aborts, as a network
 * backend should; `log.aborted` counts those.
 */
export function faultyBackend(
  backend: TaskRecordBackend,
  faults: Partial<Record<TaskRecordKind, Fault>>,
  log: FaultLog = { aborted: 0 },
): TaskRecordBackend {
  const misbehave = <T>(kind: TaskRecordKind, read: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
    const fault = faults[kind];
    if (fault === undefined) return read();
    if (fault.kind === 'throw') return Promise.reject(fault.error);
    return new Promise<T>((_, reject) => {
      signal?.addEventListener('abort', () => {
        log.aborted += 1;
        reject(signal.reason);
      });
    });
  };
  return {
    name: `${backend.name}+faults`,
    apply: (writes) => backend.apply(writes),
    get: (repo, kind, id) => misbehave(kind, () => backend.get(repo, kind, id)),
    list: (query) => misbehave(query.kind, () => backend.list(query), query.signal),
    search: (query) => misbehave(query.kind, () => backend.search(query), query.signal),
    delete: (repo, kind, id) => backend.delete(repo, kind, id),
    close: () => backend.close(),
  };
}
