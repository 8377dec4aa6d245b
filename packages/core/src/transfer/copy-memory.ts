// Why: a team that starts on the directory store must be able to move its memory to SQLite or
// PostgreSQL (and back) without losing a byte or a record id. One function copies everything a
// store holds for a repository between any two specs: documents byte for byte, then verified
// memories and task records through each side's record backend. It never deletes, and never
// overwrites unless asked; a dry run opens the target read-only and reports what would happen.
import { RepomemError } from '../errors.js';
import {
  defaultStoreRegistry,
  type OpenStoreOptions,
  type ResolvedSpec,
  type StoreRegistry,
} from '../registry/registry.js';
import type { StoreScheme } from '../registry/scheme.js';
import type { MemoryStore } from '../store/contract.js';
import { createInMemoryStore } from '../store/memory-store.js';
import type { TaskRecordBackend } from '../tasks/record-backend.js';
import type { VerifiedMemoryBackend } from '../verified/backend.js';
import { copyDocuments } from './copy-documents.js';
import { replayHistory } from './copy-history.js';
import { copyTaskRecords, copyVerified } from './copy-records.js';
import type { CopyConflict, CopyProgress, CopyReport } from './types.js';

/** An opened side of a copy: a store and its record backends (the caller keeps ownership). */
export interface CopyEndpoint {
  /** How the side is named in the report (a spec, redacted). */
  readonly label: string;
  readonly store: MemoryStore;
  readonly verified: VerifiedMemoryBackend;
  readonly tasks: TaskRecordBackend;
}

/** Options of {@link copyMemory}. */
export interface CopyMemoryOptions {
  /** The store copied from: a spec (`dir:./memory`, `sqlite:...`, `git:.#agent/memory`, `postgres://...`) or an opened endpoint. */
  readonly from: string | ResolvedSpec<StoreScheme> | CopyEndpoint;
  /** The store copied to. */
  readonly to: string | ResolvedSpec<StoreScheme> | CopyEndpoint;
  /** Repository whose records are copied, and scope of multi-repository stores (default `local/default`). */
  readonly repo?: string;
  /** Report what would be copied without writing anything (the target is opened read-only). */
  readonly dryRun?: boolean;
  /** Replace target items that differ (default `false`: they are left alone and listed as conflicts). */
  readonly overwrite?: boolean;
  /** Called after each batch. */
  readonly onProgress?: (progress: CopyProgress) => void;
  readonly signal?: AbortSignal;
  /** Registry that opens the specs (default core's). */
  readonly registry?: StoreRegistry;
  /** Directory relative specs resolve against, and environment (defaults: the process's). */
  readonly cwd?: string;
  readonly env?: OpenStoreOptions['env'];
}

const MAX_LISTED_CONFLICTS = 1000;

/** Codes of opening a store that does not exist yet (read-only opens do not create it). */
const MISSING_STORE_CODES: ReadonlySet<string> = new Set(['NOT_FOUND', 'NOT_A_DIRECTORY']);

/** An empty store standing in for a target that does not exist yet (dry runs). */
async function emptyEndpoint(label: string): Promise<{ endpoint: CopyEndpoint; close(): Promise<void> }> {
  // Loaded on first use, as the registry loads them: a command that copies nothing never loads them.
  const { createDocumentRecordBackend } = await import('../verified/document-backend.js');
  const { createDocumentTaskRecordBackend } = await import('../tasks/document-backend.js');
  const store = createInMemoryStore();
  return {
    endpoint: {
      label,
      store,
      verified: createDocumentRecordBackend(store),
      tasks: createDocumentTaskRecordBackend(store),
    },
    close: () => store.close(),
  };
}

function isEndpoint(value: CopyMemoryOptions['from']): value is CopyEndpoint {
  return typeof value === 'object' && value !== null && 'store' in value && 'verified' in value;
}

/** Open one side from a spec: its store and record backends, and how to close them. */
async function openEndpoint(
  spec: string | ResolvedSpec<StoreScheme>,
  registry: StoreRegistry,
  options: OpenStoreOptions,
): Promise<{ endpoint: CopyEndpoint; close(): Promise<void> }> {
  const resolved = typeof spec === 'string' ? await registry.resolveStoreSpec(spec, options) : spec;
  const opened: { close(): Promise<void> }[] = [];
  const close = async () => {
    for (const item of opened.reverse()) await item.close().catch(() => undefined);
  };
  try {
    const store = await registry.openStore(resolved, options);
    opened.push(store);
    const verified = await registry.openVerifiedBackend(resolved, options);
    opened.push(verified);
    const tasks = await registry.openTaskRecordBackend(resolved, options);
    opened.push(tasks);
    return { endpoint: { label: resolved.label, store, verified, tasks }, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Copy a repository's memory from one store to another: every document but repomem's own
 * `.repomem/` documents byte for byte, then verified memories and task records with their ids.
 * When both stores keep history (git) and the target has no documents yet, the source's revisions
 * are replayed first, one target revision each, with their messages and trailers.
 * Items the target already holds identically are `unchanged`; items it holds differently are left
 * alone and listed (`conflict`) unless `overwrite`. Nothing is deleted. Safe to run again: a
 * second run copies only what is new. Vectors and caches are not copied (rebuilt by
 * `repomem index`), nor telemetry events.
 *
 * @example
 * ```ts
 * const report = await copyMemory({ from: 'dir:./memory', to: 'sqlite:.repomem/repomem.db', repo: 'acme/app' });
 * console.log(report.documents.copied, report.verified.copied, report.tasks.copied);
 * ```
 */
export async function copyMemory(options: CopyMemoryOptions): Promise<CopyReport> {
  if (options === null || typeof options !== 'object' || options.from === undefined || options.to === undefined) {
    throw new RepomemError('INVALID_ARGUMENT', 'copyMemory needs { from, to }');
  }
  const registry = options.registry ?? defaultStoreRegistry;
  const repo = options.repo ?? 'local/default';
  const dryRun = options.dryRun === true;
  const base = {
    repo,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  const toClose: (() => Promise<void>)[] = [];
  try {
    let from: CopyEndpoint;
    if (isEndpoint(options.from)) from = options.from;
    else {
      const opened = await openEndpoint(options.from, registry, { ...base, readOnly: true });
      toClose.push(opened.close);
      from = opened.endpoint;
    }
    let to: CopyEndpoint;
    if (isEndpoint(options.to)) to = options.to;
    else {
      const resolved = typeof options.to === 'string' ? await registry.resolveStoreSpec(options.to, base) : options.to;
      const opened = await openEndpoint(resolved, registry, { ...base, readOnly: dryRun, create: !dryRun }).catch(
        (error: unknown) => {
          // A dry run opens the target read-only, which does not create it: one that does not exist yet is empty.
          if (dryRun && error instanceof RepomemError && MISSING_STORE_CODES.has(error.code)) {
            return emptyEndpoint(resolved.label);
          }
          throw error;
        },
      );
      toClose.push(opened.close);
      to = opened.endpoint;
    }
    const conflicts: CopyConflict[] = [];
    const shared = {
      dryRun,
      overwrite: options.overwrite === true,
      conflicts,
      onProgress: options.onProgress,
      signal: options.signal,
    };
    const history = await replayHistory(from.store, to.store, shared);
    const documents = await copyDocuments(from.store, to.store, {
      ...shared,
      ...(history.kind === 'replayed' ? { replayed: history.paths } : {}),
    });
    const verified = await copyVerified(from.verified, to.verified, { ...shared, repo });
    const tasks = await copyTaskRecords(from.tasks, to.tasks, { ...shared, repo });
    return {
      dryRun,
      from: from.label,
      to: to.label,
      repo,
      history: history.kind === 'replayed' ? { kind: 'replayed', revisions: history.revisions } : history,
      documents: { ...documents.counts.counts(), bytes: documents.bytes },
      verified: verified.counts(),
      tasks: tasks.counts(),
      conflicts: conflicts.slice(0, MAX_LISTED_CONFLICTS),
    };
  } finally {
    for (const close of toClose.reverse()) await close();
  }
}
