// Why: a store (or a citation reader) is named by one short string such as
// `sqlite:.repomem/repomem.db`, `dir:./memory`, `git:.#agent/memory` or `agentcore:<id>`. Each
// store package describes its own scheme (grammar, parser, label, opener) with these types, so
// the registry can load it on demand and every caller (CLI, MCP server, library) opens stores
// the same way.
import type { CitationReader } from '../citations/reader.js';
import type { KitDriver } from '../kit/driver.js';
import type { MemoryStore } from '../store/contract.js';
import type { TaskRecordBackend } from '../tasks/record-backend.js';
import type { VerifiedMemoryBackend } from '../verified/backend.js';

/** Environment variables as `process.env` holds them. */
export type SchemeEnvironment = Readonly<Record<string, string | undefined>>;

/** What a scheme's parser may use: relative paths resolve against `cwd`; `env` supplies defaults. */
export interface SchemeContext {
  /** Absolute directory relative paths resolve against. */
  readonly cwd: string;
  /** Environment (endpoints, credentials sources, `DATABASE_URL`...). */
  readonly env: SchemeEnvironment;
}

/** What a store opener receives besides the parsed target. */
export interface OpenStoreContext extends SchemeContext {
  /** Repository slug `owner/name` a multi-repository store is scoped to (single-tree stores ignore it). */
  readonly repo: string;
  /** Open without writing anything (a missing store is `NOT_FOUND`, never created). */
  readonly readOnly: boolean;
  /** Create a missing directory-like store (a memory directory); databases are created on first write anyway. */
  readonly create: boolean;
  /** Aborts a slow open (network stores). */
  readonly signal?: AbortSignal;
  /**
   * Most server connections a pooled scheme may hold for this open when its spec sets none
   * (PostgreSQL's `pool_max`): 1 for a one-shot command, so the command holds one connection
   * even when its work runs concurrently; unset for a long-lived server (the scheme's default).
   */
  readonly maxConnections?: number;
}

/** What a citation-reader opener receives besides the parsed target. */
export interface OpenCitationReaderContext extends SchemeContext {
  /** Repository slug `owner/name` the citations belong to. */
  readonly repo: string;
  /** Revision to read (branch, tag or commit) when the spec names none. */
  readonly ref?: string;
}

/**
 * A store scheme, exported by a store package as `storeScheme`. `Target` is the parsed spec.
 *
 * @example
 * ```ts
 * export const storeScheme: StoreScheme<{ path: string }> = {
 *   scheme: 'sqlite',
 *   grammar: 'sqlite:<path>',
 *   parse: (rest, context) => ({ path: resolve(context.cwd, rest) }),
 *   label: (target) => `sqlite:${target.path}`,
 *   open: (target, context) => openSqliteStore({ path: target.path, repo: context.repo }),
 * };
 * ```
 */
export interface StoreScheme<Target = unknown> {
  /** Scheme name without the colon (`sqlite`). */
  readonly scheme: string;
  /** Other names for the same scheme (`postgresql` for `postgres`). */
  readonly aliases?: readonly string[];
  /** The grammar shown in error messages, e.g. `git:<repo-dir>[#<branch>]`. */
  readonly grammar: string;
  /**
   * Parse what follows `<scheme>:`. Throws `RepomemError` `INVALID_ARGUMENT` saying what is wrong
   * (the registry adds the spec to the message). Opens nothing.
   */
  parse(rest: string, context: SchemeContext): Target;
  /** The spec as text for messages, with any secret (a password) replaced by `***`. */
  label(target: Target): string;
  /** Open the store (required unless the scheme gives {@link StoreScheme.openDriver}). */
  open?(target: Target, context: OpenStoreContext): Promise<MemoryStore>;
  /**
   * Open a store kit driver (one connection or pool). The registry then builds the store with
   * `createStore(driver)` and, unless the scheme has native ones, the verified-memory and
   * task-record backends on that same store, so one spec opens one driver. Takes precedence over
   * `open` when both are given.
   */
  openDriver?(target: Target, context: OpenStoreContext): Promise<KitDriver>;
  /**
   * Open the store and its native record backends from ONE connection, pool or client (a
   * PostgreSQL pool, a SQLite handle, an SDK client). The registry's `openStoreSet` uses it
   * before `openDriver` and the separate openers, so a command that touches the store, verified
   * memories and task records opens its spec once. A facet the set leaves out is kept as JSON
   * documents in the set's store. The separate openers stay for callers that want one facet.
   */
  openSet?(target: Target, context: OpenStoreContext): Promise<StoreSchemeSet>;
  /**
   * Open the store's native verified-memory backend (tables, record namespaces). Without it,
   * verified memories are kept as JSON documents in the store (`createDocumentRecordBackend`).
   */
  openVerifiedBackend?(target: Target, context: OpenStoreContext): Promise<VerifiedMemoryBackend>;
  /**
   * Open the store's native task-record backend. Without it, task records are kept as JSON
   * documents in the store (`createDocumentTaskRecordBackend`).
   */
  openTaskRecordBackend?(target: Target, context: OpenStoreContext): Promise<TaskRecordBackend>;
  /**
   * Check that the store can be used (reachability, permissions, schema, identifier mapping) and
   * explain each failure; used by `repomem doctor`. Never throws for a failed check: it reports it.
   */
  diagnose?(target: Target, context: OpenStoreContext): Promise<readonly StoreDiagnostic[]>;
}

/**
 * The facets of one open ({@link StoreScheme.openSet}), sharing one connection.
 *
 * Closing is set-level: a facet's own `close()` ends only that facet (its later calls fail with
 * `STORE_CLOSED`) and never the shared connection, so closing the store alone leaves the backends
 * working; the set's `close()` closes every facet it returned, then the connection, once.
 */
export interface StoreSchemeSet {
  /** The store. */
  readonly store: MemoryStore;
  /** The native verified-memory backend on the same connection (omitted: JSON documents in `store`). */
  readonly verifiedBackend?: VerifiedMemoryBackend;
  /** The native task-record backend on the same connection (omitted: JSON documents in `store`). */
  readonly taskRecordBackend?: TaskRecordBackend;
  /** Close the facets, then the shared connection; idempotent. */
  close(): Promise<void>;
}

/**
 * A {@link StoreSchemeSet} of `facets` sharing one connection: its `close()` closes every facet
 * (whatever each one's outcome), then calls `closeConnection` once; later calls return the same
 * promise. Schemes build their `openSet` answer with it.
 */
export function schemeSetOn<Facets extends Omit<StoreSchemeSet, 'close'>>(
  facets: Facets,
  closeConnection: () => void | Promise<void>,
): Facets & { close(): Promise<void> } {
  let closing: Promise<void> | undefined;
  return {
    ...facets,
    close: () => {
      closing ??= (async () => {
        try {
          await Promise.allSettled([
            facets.verifiedBackend?.close(),
            facets.taskRecordBackend?.close(),
            facets.store.close(),
          ]);
        } finally {
          await closeConnection();
        }
      })();
      return closing;
    },
  };
}

/** One check of {@link StoreScheme.diagnose}. */
export interface StoreDiagnostic {
  /** What was checked, in a few words (`reachable`, `schema version`, `row-level security`). */
  readonly check: string;
  /** `ok`, `warning` (works, but worth fixing) or `failed` (the store cannot be used as is). */
  readonly status: 'ok' | 'warning' | 'failed';
  /** What was found, in plain words, secrets redacted. */
  readonly detail: string;
  /** What to do about a warning or failure. */
  readonly fix?: string;
}

/** A citation-reader scheme, exported by a package as `citationReaderScheme`. */
export interface CitationReaderScheme<Target = unknown> {
  /** Scheme name without the colon (`git`, `dir`, `github`). */
  readonly scheme: string;
  /** The grammar shown in error messages. */
  readonly grammar: string;
  /** Parse what follows `<scheme>:` (`''` when the spec is the bare scheme name, as in `github`). */
  parse(rest: string, context: SchemeContext): Target;
  /** The spec as text for messages, secrets redacted. */
  label(target: Target): string;
  /** Build the reader. */
  open(target: Target, context: OpenCitationReaderContext): Promise<CitationReader>;
}

/** What a scheme package exports (either or both). */
export interface SchemeModule {
  /** The package's store scheme. */
  // biome-ignore lint/suspicious/noExplicitAny: each package's target type is its own
  readonly storeScheme?: StoreScheme<any>;
  /** The package's citation-reader scheme. */
  // biome-ignore lint/suspicious/noExplicitAny: each package's target type is its own
  readonly citationReaderScheme?: CitationReaderScheme<any>;
}

/** Loads a scheme package on demand, e.g. a function returning the dynamic import of `@repomem/store-sqlite`. */
export type SchemeLoader = () => Promise<SchemeModule>;
