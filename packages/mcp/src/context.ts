// Why: everything a server needs is opened once and shared by every session (one stdio client,
// or each Streamable HTTP session): the store, the bullet facade over it, the verified-memory
// service over the store's own backend, and the citation source. Closing the context closes
// what it opened and nothing the application passed in.
import {
  branchFromEnvironment,
  createDocumentRecordBackend,
  createDocumentTaskRecordBackend,
  createSemanticIndex,
  defaultStoreRegistry,
  type LearnedOn,
  type Memory,
  type MemoryMode,
  MemoryModeSchema,
  type MemoryStore,
  openMemory,
  openVerifiedMemory,
  RepomemError,
  repoSlugProblem,
  resolveLearnedOn,
  type SemanticIndex,
  type StoreSet,
  type TaskRecordBackend,
  type VerifiedMemoryBackend,
  type VerifiedMemoryService,
} from '@repomem/core';
import { type CitationSource, citationSource, lazyReader } from './citation-source.js';
import type { MemoryMcpOptions } from './options.js';
import { readOnlyBackend } from './read-only-backend.js';
import { TOOL_NAME_STYLES, type ToolNameStyle } from './tool-names.js';

/** Default interval of the store-revision check behind resource list-changed notifications. */
export const DEFAULT_WATCH_INTERVAL_MS = 1000;

/** What a memory server works on, opened once by {@link openMemoryMcpContext}. */
export interface MemoryMcpContext {
  /** The repository every tool is scoped to. */
  readonly repo: string;
  /** Access mode. */
  readonly mode: MemoryMode;
  /** The store (absent in `disabled` mode: nothing is opened). */
  readonly store: MemoryStore | undefined;
  /** Bullet operations and search over the store. */
  readonly memory: Memory | undefined;
  /** Verified memories of the store. */
  readonly verified: VerifiedMemoryService | undefined;
  /** Task records (episodes, rules, learnings, preferences, receipts) of the store. */
  readonly tasks: TaskRecordBackend | undefined;
  /** The semantic index over the store when an embedder was given (search and hydration use it). */
  readonly semantic?: SemanticIndex;
  /** Where cited code is read. */
  readonly citations: CitationSource;
  /**
   * The branch reads are scoped to when a tool call names no `ref`: `$GITHUB_HEAD_REF`, else a
   * `$GITHUB_REF` naming a branch; `undefined` = the citation reader's current branch.
   */
  readonly branch: string | undefined;
  /**
   * Where a memory written now is learned (`resolveLearnedOn`: the clone's HEAD and current
   * branch through the citation reader, else `$GITHUB_SHA` and `$GITHUB_HEAD_REF`/`$GITHUB_REF`);
   * `undefined` when neither names a commit and a branch (the default branch's scope).
   */
  learnedOn(): Promise<LearnedOn | undefined>;
  /** How tool names are spelled. */
  readonly toolNames: ToolNameStyle;
  /** Store-revision check interval in ms (0: off). */
  readonly watchIntervalMs: number;
  /** Close what the context opened (idempotent). */
  close(): Promise<void>;
}

function checkOptions(options: MemoryMcpOptions): MemoryMode {
  if (options === null || typeof options !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', 'expected options { storeSpec | store, repo, mode? }');
  }
  const problem = repoSlugProblem(options.repo);
  if (problem !== undefined) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid repository ${JSON.stringify(options.repo)}: ${problem}`);
  }
  const mode = MemoryModeSchema.safeParse(options.mode ?? 'enabled');
  if (!mode.success) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `mode must be enabled, read-only or disabled (got ${String(options.mode)})`,
    );
  }
  if (options.store !== undefined && options.storeSpec !== undefined) {
    throw new RepomemError('INVALID_ARGUMENT', 'pass either store or storeSpec, not both');
  }
  if (options.toolNames !== undefined && !TOOL_NAME_STYLES.includes(options.toolNames)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `toolNames must be dotted or underscored (got ${String(options.toolNames)})`,
    );
  }
  const interval = options.watchIntervalMs ?? DEFAULT_WATCH_INTERVAL_MS;
  if (!Number.isInteger(interval) || interval < 0) {
    throw new RepomemError('INVALID_ARGUMENT', `watchIntervalMs must be a non-negative integer (got ${interval})`);
  }
  return mode.data;
}

/**
 * Open the store, the memory facade and the verified-memory service a server uses. In `disabled`
 * mode nothing is opened. A spec is opened once (the registry's `openStoreSet`): the record
 * backends are the scheme's native ones when it has them (SQLite, PostgreSQL tables...) on the
 * store's own connection, otherwise JSON documents in the store itself.
 */
export async function openMemoryMcpContext(options: MemoryMcpOptions): Promise<MemoryMcpContext> {
  const mode = checkOptions(options);
  const cwd = options.cwd ?? process.cwd();
  const registry = options.registry ?? defaultStoreRegistry;
  const citations = citationSource({
    source: options.citationReader,
    registry: options.registry,
    repo: options.repo,
    cwd,
    env: options.env,
  });
  const watchIntervalMs = options.watchIntervalMs ?? DEFAULT_WATCH_INTERVAL_MS;
  const toolNames = options.toolNames ?? 'dotted';
  const fromEnvironment = branchFromEnvironment(options.env ?? process.env);
  if (fromEnvironment.kind === 'invalid') throw new RepomemError('INVALID_ARGUMENT', fromEnvironment.message);
  const branch = fromEnvironment.kind === 'branch' ? fromEnvironment.branch : undefined;
  const learnedOn = async (): Promise<LearnedOn | undefined> => {
    // A reader that cannot be opened (no clone) leaves the environment to answer.
    const history = await citations.reader().catch(() => undefined);
    const resolved = await resolveLearnedOn({
      repo: options.repo,
      env: options.env ?? process.env,
      ...(history === undefined ? {} : { history }),
    });
    return resolved.kind === 'learned' ? resolved.learnedOn : undefined;
  };
  if (mode === 'disabled') {
    const close = async (): Promise<void> => {};
    return {
      repo: options.repo,
      mode,
      store: undefined,
      memory: undefined,
      verified: undefined,
      tasks: undefined,
      citations,
      branch,
      learnedOn,
      toolNames,
      watchIntervalMs,
      close,
    };
  }
  const readOnly = mode === 'read-only';
  const openOptions = {
    cwd,
    repo: options.repo,
    readOnly,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
  };
  // A spec is opened once for the store and both record backends (one pool on PostgreSQL, one
  // handle on SQLite); what the application passed in is used as is and never closed here.
  const set = options.store === undefined ? await registry.openStoreSet(options.storeSpec, openOptions) : undefined;
  const store = options.store ?? (set as StoreSet).store;
  let backend: VerifiedMemoryBackend;
  let tasks: TaskRecordBackend;
  try {
    backend =
      options.verifiedBackend ?? (set === undefined ? createDocumentRecordBackend(store) : await set.verified());
    tasks = options.taskBackend ?? (set === undefined ? createDocumentTaskRecordBackend(store) : await set.tasks());
  } catch (error) {
    await set?.close();
    throw error;
  }
  const ownsBackend = options.verifiedBackend === undefined && set === undefined;
  const ownsTasks = options.taskBackend === undefined && set === undefined;
  const verified = openVerifiedMemory({
    backend: readOnly ? readOnlyBackend(backend) : backend,
    citations: lazyReader(citations),
  });
  const memory = openMemory({ store, mode });
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // The set closes its facets and its connection; document backends over a passed store
      // hold nothing of their own but are closed all the same.
      try {
        if (ownsBackend) await backend.close();
        if (ownsTasks) await tasks.close();
      } finally {
        await set?.close();
      }
    })();
    return closing;
  };
  const semantic =
    options.embedder === undefined ? undefined : createSemanticIndex({ store, embedder: options.embedder });
  return {
    repo: options.repo,
    mode,
    store,
    memory,
    verified,
    tasks,
    ...(semantic === undefined ? {} : { semantic }),
    citations,
    branch,
    learnedOn,
    toolNames,
    watchIntervalMs,
    close,
  };
}
