// Why: one place turns a spec into an open store or citation reader for the CLI, the MCP server
// and library users alike. Store packages are loaded on demand (the unstorage driver-map
// pattern): a built-in map names the package of each scheme, `import()` loads it the first time
// the scheme is used, and callers may register their own schemes or loaders (a bundler-friendly
// dynamic import the bundler can see, a third-party store). Core imports no store package
// statically, so it stays free of I/O code.
import type { CitationReader } from '../citations/reader.js';
import { repoSlugProblem } from '../envelope/repo-slug.js';
import { RepomemError } from '../errors.js';
import type { KitStore } from '../kit/create-store.js';
import type { MemoryStore } from '../store/contract.js';
// Type-only: the document backends load on first use, so opening a store never loads them.
import type { createDocumentTaskRecordBackend } from '../tasks/document-backend.js';
import type { TaskRecordBackend } from '../tasks/record-backend.js';
import type { VerifiedMemoryBackend } from '../verified/backend.js';
import type { createDocumentRecordBackend } from '../verified/document-backend.js';
import type {
  CitationReaderScheme,
  OpenCitationReaderContext,
  OpenStoreContext,
  SchemeContext,
  SchemeEnvironment,
  SchemeLoader,
  SchemeModule,
  StoreDiagnostic,
  StoreScheme,
  StoreSchemeSet,
} from './scheme.js';
import { invalidSpec, redactSpec, splitSpec } from './spec-text.js';

/**
 * The store used when none is named: an embedded SQLite database at `.repomem/repomem.db`,
 * relative to the working directory (created, with its directory, on the first write).
 */
export const DEFAULT_STORE_SPEC = 'sqlite:.repomem/repomem.db';

/** Repository scope used when no repository is named (multi-repository stores only). */
export const DEFAULT_STORE_REPO = 'local/default';

/** The package that provides each built-in store scheme. */
export const BUILTIN_STORE_PACKAGES: Readonly<Record<string, string>> = Object.freeze({
  sqlite: '@repomem/store-sqlite',
  dir: '@repomem/store-fs',
  git: '@repomem/store-git',
  agentcore: '@repomem/store-agentcore',
  postgres: '@repomem/store-postgres',
  postgresql: '@repomem/store-postgres',
  dynamodb: '@repomem/store-dynamodb',
});

/** The package that provides each built-in citation-reader scheme. */
export const BUILTIN_CITATION_READER_PACKAGES: Readonly<Record<string, string>> = Object.freeze({
  dir: '@repomem/store-fs',
  git: '@repomem/store-git',
  github: '@repomem/github',
});

/** Options of {@link StoreRegistry.openStore}. */
export interface OpenStoreOptions {
  /** Directory relative paths resolve against (default `process.cwd()`). */
  readonly cwd?: string;
  /** Environment (default `process.env`). */
  readonly env?: SchemeEnvironment;
  /** Repository slug for multi-repository stores (default {@link DEFAULT_STORE_REPO}); validated. */
  readonly repo?: string;
  /** Open without writing anything (default `false`). */
  readonly readOnly?: boolean;
  /** Create a missing memory directory (default `false`). */
  readonly create?: boolean;
  /** Aborts a slow open. */
  readonly signal?: AbortSignal;
  /**
   * Most server connections a pooled scheme may hold when the spec sets none (see
   * {@link OpenStoreContext.maxConnections}); a positive integer. The CLI passes 1.
   */
  readonly maxConnections?: number;
}

/** Options of {@link StoreRegistry.openCitationReader}. */
export interface OpenCitationReaderOptions {
  /** Directory relative paths resolve against (default `process.cwd()`). */
  readonly cwd?: string;
  /** Environment (default `process.env`; the GitHub reader takes `GITHUB_TOKEN`, `GITHUB_API_URL`). */
  readonly env?: SchemeEnvironment;
  /** Repository slug of the cited code (default {@link DEFAULT_STORE_REPO}); validated. */
  readonly repo?: string;
  /** Revision to read when the spec names none. */
  readonly ref?: string;
}

/** A spec parsed by its scheme, ready to open. */
export interface ResolvedSpec<Scheme> {
  /** The scheme that parsed it. */
  readonly scheme: Scheme;
  /** The parsed target. */
  readonly target: unknown;
  /** The spec as text, with relative paths resolved and secrets redacted. */
  readonly label: string;
}

type Entry<S> = { readonly loaded: S } | { readonly load: SchemeLoader; readonly origin: string };

function defaultEnv(): SchemeEnvironment {
  return (globalThis as { process?: { env?: SchemeEnvironment } }).process?.env ?? {};
}

function defaultCwd(): string {
  const proc = (globalThis as { process?: { cwd?: () => string } }).process;
  if (proc?.cwd === undefined) {
    throw new RepomemError('INVALID_ARGUMENT', 'no working directory: pass cwd to open a store from a spec');
  }
  return proc.cwd();
}

function checkRepo(repo: string | undefined): string {
  const value = repo ?? DEFAULT_STORE_REPO;
  const problem = repoSlugProblem(value);
  if (problem !== undefined) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid repository ${JSON.stringify(value)}: ${problem}`, {
      details: { repo: value },
    });
  }
  return value;
}

function storeContext(options: OpenStoreOptions): OpenStoreContext {
  return {
    cwd: options.cwd ?? defaultCwd(),
    env: options.env ?? defaultEnv(),
    repo: checkRepo(options.repo),
    readOnly: options.readOnly ?? false,
    create: options.create ?? false,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.maxConnections === undefined ? {} : { maxConnections: checkConnections(options.maxConnections) }),
  };
}

function checkConnections(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RepomemError('INVALID_ARGUMENT', `maxConnections must be a positive integer (got ${String(value)})`);
  }
  return value;
}

/** A store with its record backends, opened from one spec (see {@link StoreRegistry.openStoreSet}). */
export interface StoreSet {
  /** The store. */
  readonly store: MemoryStore;
  /** Its verified-memory backend (the scheme's native one, else documents in `store`), opened on first call. */
  verified(): Promise<VerifiedMemoryBackend>;
  /** Its task-record backend (the scheme's native one, else documents in `store`), opened on first call. */
  tasks(): Promise<TaskRecordBackend>;
  /**
   * Close the backends that were opened, then the store and the connection they share; once
   * (idempotent). Close the set rather than its facets: on a scheme's `openSet` a facet's own
   * `close()` ends only that facet, and backends kept as documents need the store open.
   */
  close(): Promise<void>;
}

/** Options of {@link StoreRegistry}'s constructor. */
export interface StoreRegistryOptions {
  /** Register the built-in schemes, loaded on demand (default `true`). */
  readonly builtins?: boolean;
  /**
   * Loaders of built-in scheme packages by package name, used instead of a run-time `import()` of
   * the name: a bundled application (the CLI binary) passes `import()` calls its bundler can see,
   * while the scheme names stay those of core's built-in map.
   *
   * @example
   * ```ts
   * new StoreRegistry({ packages: { '@repomem/store-sqlite': () => import('@repomem/store-sqlite') } });
   * ```
   */
  readonly packages?: Readonly<Record<string, SchemeLoader>>;
}

/** `backend` whose `close()` also closes the store it keeps its records in. */
function closingStore<B extends { close(): Promise<void> }>(backend: B, store: MemoryStore): B {
  const close = async (): Promise<void> => {
    try {
      await backend.close();
    } finally {
      await store.close();
    }
  };
  // A proxy rather than a copy: methods keep `backend` as `this` (private fields keep working).
  return new Proxy(backend, {
    get(target, property) {
      if (property === 'close') return close;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function problemText(error: unknown): string {
  if (error instanceof RepomemError) return `${error.message} (${error.code})`;
  return error instanceof Error ? error.message : String(error);
}

/** The generic checks: the store opens read-only, lists documents and reads its state. */
async function diagnoseByReading(
  resolved: ResolvedSpec<StoreScheme>,
  context: OpenStoreContext,
): Promise<readonly StoreDiagnostic[]> {
  const checks: StoreDiagnostic[] = [];
  let store: MemoryStore;
  try {
    store = await openResolved(resolved, context);
  } catch (error) {
    checks.push({
      check: 'opens',
      status: 'failed',
      detail: `${resolved.label} could not be opened: ${problemText(error)}`,
      fix: 'check the spec, that the store exists (a first write creates it), and the permissions',
    });
    return checks;
  }
  try {
    checks.push({
      check: 'opens',
      status: 'ok',
      detail: `${resolved.label} opened (contract ${store.specificationVersion})`,
    });
    try {
      const documents = await store.list('');
      checks.push({ check: 'lists documents', status: 'ok', detail: `${documents.length} documents` });
    } catch (error) {
      checks.push({ check: 'lists documents', status: 'failed', detail: problemText(error) });
    }
    try {
      const keys = await store.state.list();
      checks.push({ check: 'reads state', status: 'ok', detail: `${keys.length} state keys` });
    } catch (error) {
      checks.push({ check: 'reads state', status: 'failed', detail: problemText(error) });
    }
  } finally {
    await store.close();
  }
  return checks;
}

function isModuleMissing(error: unknown, packageName: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') &&
    message.includes(packageName)
  );
}

// A variable specifier keeps bundlers and TypeScript from resolving store packages from core.
const importPackage = (name: string): Promise<SchemeModule> => import(/* @vite-ignore */ name);

function packageLoader(name: string, loaders: Readonly<Record<string, SchemeLoader>> = {}): Entry<never> {
  return { load: loaders[name] ?? (() => importPackage(name)), origin: name };
}

/** Open the store of a resolved spec: on the scheme's kit driver when it has one (createStore loads on first use). */
async function openResolved(
  resolved: ResolvedSpec<StoreScheme>,
  context: OpenStoreContext,
): Promise<KitStore | MemoryStore> {
  const { scheme, target } = resolved;
  if (scheme.openDriver !== undefined) {
    const { createStore } = await import('../kit/create-store.js');
    const driver = await scheme.openDriver(target, context);
    try {
      return createStore(driver);
    } catch (error) {
      await driver.close();
      throw error;
    }
  }
  if (scheme.open === undefined) {
    throw new RepomemError('INVALID_ARGUMENT', `the ${scheme.scheme}: scheme has neither open nor openDriver`);
  }
  return scheme.open(target, context);
}

/** A record backend kept as documents of `store` (on a kit store, from the same driver). */
async function documentBackend<K extends 'verified' | 'tasks'>(
  store: MemoryStore,
  kind: K,
): Promise<K extends 'verified' ? VerifiedMemoryBackend : TaskRecordBackend> {
  type Result = K extends 'verified' ? VerifiedMemoryBackend : TaskRecordBackend;
  if (kind === 'verified') {
    const { createDocumentRecordBackend: create } = await import('../verified/document-backend.js');
    return create(store) as Result;
  }
  const { createDocumentTaskRecordBackend: create } = await import('../tasks/document-backend.js');
  return create(store) as Result;
}

/** A {@link StoreSet} over a scheme's own set: facets it left out become documents in its store. */
function setOf(opened: StoreSchemeSet): StoreSet {
  const { store } = opened;
  let verified: Promise<VerifiedMemoryBackend> | undefined;
  let tasks: Promise<TaskRecordBackend> | undefined;
  let closing: Promise<void> | undefined;
  return {
    store,
    verified: () => {
      verified ??=
        opened.verifiedBackend === undefined
          ? documentBackend(store, 'verified')
          : Promise.resolve(opened.verifiedBackend);
      return verified;
    },
    tasks: () => {
      tasks ??=
        opened.taskRecordBackend === undefined
          ? documentBackend(store, 'tasks')
          : Promise.resolve(opened.taskRecordBackend);
      return tasks;
    },
    close: () => {
      closing ??= (async () => {
        try {
          // Document backends hold no connection of their own; the scheme's set closes its
          // native facets, then the connection.
          for (const backend of [verified, tasks]) await (await backend?.catch(() => undefined))?.close();
        } finally {
          await opened.close();
        }
      })();
      return closing;
    },
  };
}

/**
 * A set of store and citation-reader schemes. {@link defaultStoreRegistry} holds the built-in
 * ones; create another for isolation (tests, an embedding application with its own schemes).
 */
export class StoreRegistry {
  readonly #stores = new Map<string, Entry<StoreScheme>>();
  readonly #readers = new Map<string, Entry<CitationReaderScheme>>();

  /**
   * A registry; with `builtins` (default `true`) the built-in schemes load their packages on
   * demand, through `packages` when it has a loader for the package.
   */
  constructor(options: StoreRegistryOptions = {}) {
    if (options.builtins === false) return;
    for (const [scheme, name] of Object.entries(BUILTIN_STORE_PACKAGES)) {
      this.#stores.set(scheme, packageLoader(name, options.packages));
    }
    for (const [scheme, name] of Object.entries(BUILTIN_CITATION_READER_PACKAGES)) {
      this.#readers.set(scheme, packageLoader(name, options.packages));
    }
  }

  /**
   * Register a store scheme, or a loader of the package that exports it as `storeScheme`
   * (`registerStoreScheme('sqlite', loadSqlite)` where `loadSqlite` returns the package's dynamic import). Replaces an
   * earlier registration of the same name.
   */
  registerStoreScheme(scheme: StoreScheme | string, loader?: SchemeLoader): void {
    if (typeof scheme === 'string') {
      if (loader === undefined) throw new RepomemError('INVALID_ARGUMENT', 'registerStoreScheme(name) needs a loader');
      this.#stores.set(scheme.toLowerCase(), { load: loader, origin: scheme });
      return;
    }
    for (const name of [scheme.scheme, ...(scheme.aliases ?? [])])
      this.#stores.set(name.toLowerCase(), { loaded: scheme });
  }

  /** Register a citation-reader scheme, or a loader of the package that exports it as `citationReaderScheme`. */
  registerCitationReaderScheme(scheme: CitationReaderScheme | string, loader?: SchemeLoader): void {
    if (typeof scheme === 'string') {
      if (loader === undefined) {
        throw new RepomemError('INVALID_ARGUMENT', 'registerCitationReaderScheme(name) needs a loader');
      }
      this.#readers.set(scheme.toLowerCase(), { load: loader, origin: scheme });
      return;
    }
    this.#readers.set(scheme.scheme.toLowerCase(), { loaded: scheme });
  }

  /** Scheme names this registry knows, sorted. */
  storeSchemes(): string[] {
    return [...this.#stores.keys()].sort();
  }

  /** Citation-reader scheme names this registry knows, sorted. */
  citationReaderSchemes(): string[] {
    return [...this.#readers.keys()].sort();
  }

  /**
   * Parse a store spec with its scheme (loading the scheme's package), without opening it.
   * Throws `INVALID_ARGUMENT` naming the spec (unknown scheme, bad path...) and
   * `PACKAGE_MISSING` when the scheme's package is not installed.
   */
  async resolveStoreSpec(
    spec: string,
    options: Pick<OpenStoreOptions, 'cwd' | 'env'> = {},
  ): Promise<ResolvedSpec<StoreScheme>> {
    const scheme = await this.#scheme(this.#stores, spec, 'store', 'storeScheme');
    return this.#parse(scheme, spec, 'store', options);
  }

  /**
   * Parse a citation-reader spec (`dir:<worktree>`, `git:<repo-dir>[#<ref>]`, `github`) without opening it.
   * Same errors as {@link resolveStoreSpec}.
   */
  async resolveCitationReaderSpec(
    spec: string,
    options: Pick<OpenCitationReaderOptions, 'cwd' | 'env'> = {},
  ): Promise<ResolvedSpec<CitationReaderScheme>> {
    const scheme = await this.#scheme(this.#readers, spec, 'citation source', 'citationReaderScheme');
    return this.#parse(scheme, spec, 'citation source', options);
  }

  /**
   * Open the store a spec names (default {@link DEFAULT_STORE_SPEC}), or a spec resolved earlier.
   *
   * @example
   * ```ts
   * const store = await openStore('sqlite:.repomem/repomem.db', { repo: 'acme/app' });
   * ```
   */
  async openStore(
    spec: string | ResolvedSpec<StoreScheme> = DEFAULT_STORE_SPEC,
    options: OpenStoreOptions = {},
  ): Promise<MemoryStore> {
    const resolved = typeof spec === 'string' ? await this.resolveStoreSpec(spec, options) : spec;
    return openResolved(resolved, storeContext(options));
  }

  /**
   * Open a store and hand out its record backends from the same open, one connection for all
   * three: through the scheme's `openSet` when it has one (its native backends on its one pool or
   * handle), else its kit driver (`openDriver`, the backends as documents on that driver), else
   * the separate openers (a native record backend opened on first use, its own connection).
   * Close the set, not its facets: `close()` closes every facet handed out, then the connection.
   *
   * @example
   * ```ts
   * const set = await openStoreSet('postgres://agent@db/memory', { repo: 'acme/app' });
   * try {
   *   const tasks = await set.tasks();
   *   // ... set.store, await set.verified()
   * } finally {
   *   await set.close();
   * }
   * ```
   */
  async openStoreSet(
    spec: string | ResolvedSpec<StoreScheme> = DEFAULT_STORE_SPEC,
    options: OpenStoreOptions = {},
  ): Promise<StoreSet> {
    const resolved = typeof spec === 'string' ? await this.resolveStoreSpec(spec, options) : spec;
    const context = storeContext(options);
    if (resolved.scheme.openSet !== undefined) return setOf(await resolved.scheme.openSet(resolved.target, context));
    const store = await openResolved(resolved, context);
    const { scheme, target } = resolved;
    let verified: Promise<VerifiedMemoryBackend> | undefined;
    let tasks: Promise<TaskRecordBackend> | undefined;
    return {
      store,
      verified: () => {
        verified ??=
          scheme.openVerifiedBackend === undefined
            ? documentBackend(store, 'verified')
            : scheme.openVerifiedBackend(target, context);
        return verified;
      },
      tasks: () => {
        tasks ??=
          scheme.openTaskRecordBackend === undefined
            ? documentBackend(store, 'tasks')
            : scheme.openTaskRecordBackend(target, context);
        return tasks;
      },
      close: async () => {
        try {
          for (const backend of [verified, tasks]) await (await backend?.catch(() => undefined))?.close();
        } finally {
          await store.close();
        }
      },
    };
  }

  /**
   * Open the verified-memory backend of the store a spec names: the scheme's native one (SQLite
   * tables, PostgreSQL tables, AgentCore records) when it has one, otherwise JSON documents in
   * the store itself ({@link createDocumentRecordBackend}). Closing the backend closes the store.
   */
  async openVerifiedBackend(
    spec: string | ResolvedSpec<StoreScheme> = DEFAULT_STORE_SPEC,
    options: OpenStoreOptions = {},
  ): Promise<VerifiedMemoryBackend> {
    const resolved = typeof spec === 'string' ? await this.resolveStoreSpec(spec, options) : spec;
    const context = storeContext(options);
    if (resolved.scheme.openVerifiedBackend !== undefined) {
      return resolved.scheme.openVerifiedBackend(resolved.target, context);
    }
    const store = await openResolved(resolved, context);
    return closingStore(await documentBackend(store, 'verified'), store);
  }

  /**
   * Open the task-record backend (episodes, review rules, preferences, knowledge, context
   * receipts) of the store a spec names: the scheme's native one (AgentCore namespaces,
   * PostgreSQL tables) when it has one, otherwise JSON documents under `.repomem/tasks/` in the
   * store itself ({@link createDocumentTaskRecordBackend}). Closing the backend closes the store.
   */
  async openTaskRecordBackend(
    spec: string | ResolvedSpec<StoreScheme> = DEFAULT_STORE_SPEC,
    options: OpenStoreOptions = {},
  ): Promise<TaskRecordBackend> {
    const resolved = typeof spec === 'string' ? await this.resolveStoreSpec(spec, options) : spec;
    const context = storeContext(options);
    if (resolved.scheme.openTaskRecordBackend !== undefined) {
      return resolved.scheme.openTaskRecordBackend(resolved.target, context);
    }
    const store = await openResolved(resolved, context);
    return closingStore(await documentBackend(store, 'tasks'), store);
  }

  /**
   * Check the store a spec names and explain each failure (`repomem doctor`). Uses the scheme's
   * own `diagnose` when it has one; otherwise opens the store read-only and reads from it. Never
   * throws for a store that fails a check (only for a spec that does not parse).
   */
  async diagnoseStore(
    spec: string | ResolvedSpec<StoreScheme> = DEFAULT_STORE_SPEC,
    options: OpenStoreOptions = {},
  ): Promise<readonly StoreDiagnostic[]> {
    const resolved = typeof spec === 'string' ? await this.resolveStoreSpec(spec, options) : spec;
    const context = storeContext({ readOnly: true, ...options });
    if (resolved.scheme.diagnose !== undefined) return resolved.scheme.diagnose(resolved.target, context);
    return diagnoseByReading(resolved, context);
  }

  /** Open the citation reader a spec names, or a spec resolved earlier. */
  async openCitationReader(
    spec: string | ResolvedSpec<CitationReaderScheme>,
    options: OpenCitationReaderOptions = {},
  ): Promise<CitationReader> {
    const resolved = typeof spec === 'string' ? await this.resolveCitationReaderSpec(spec, options) : spec;
    const context: OpenCitationReaderContext = {
      cwd: options.cwd ?? defaultCwd(),
      env: options.env ?? defaultEnv(),
      repo: checkRepo(options.repo),
      ...(options.ref === undefined ? {} : { ref: options.ref }),
    };
    return resolved.scheme.open(resolved.target, context);
  }

  #parse<S extends StoreScheme | CitationReaderScheme>(
    scheme: S,
    spec: string,
    what: string,
    options: Pick<OpenStoreOptions, 'cwd' | 'env'>,
  ): ResolvedSpec<S> {
    const { rest } = splitSpec(spec, what);
    const context: SchemeContext = { cwd: options.cwd ?? defaultCwd(), env: options.env ?? defaultEnv() };
    let target: unknown;
    try {
      target = scheme.parse(rest, context);
    } catch (error) {
      if (error instanceof RepomemError && error.code === 'INVALID_ARGUMENT' && !error.message.includes(' spec ')) {
        throw invalidSpec(redactSpec(spec), what, `${error.message} (expected ${scheme.grammar})`);
      }
      throw error;
    }
    return { scheme, target, label: scheme.label(target) };
  }

  async #scheme<S extends StoreScheme | CitationReaderScheme>(
    table: Map<string, Entry<S>>,
    spec: string,
    what: string,
    exportName: keyof SchemeModule,
  ): Promise<S> {
    const { scheme: name } = splitSpec(spec, what);
    const shown = redactSpec(spec);
    const entry = table.get(name);
    const known = [...table.keys()].sort().map((key) => `${key}:`);
    if (entry === undefined) {
      throw invalidSpec(
        shown,
        what,
        spec.includes(':')
          ? `unknown scheme "${name}:" (known: ${known.join(', ')})`
          : `no scheme (known: ${known.join(', ')})`,
      );
    }
    if ('loaded' in entry) return entry.loaded;
    let module: SchemeModule;
    try {
      module = await entry.load();
    } catch (error) {
      if (isModuleMissing(error, entry.origin)) {
        throw new RepomemError(
          'PACKAGE_MISSING',
          `the ${name}: ${what} needs the package ${entry.origin}, which is not installed (npm install ${entry.origin})`,
          { cause: error, details: { scheme: name, package: entry.origin } },
        );
      }
      throw error;
    }
    const loaded = module[exportName] as S | undefined;
    const opens = (candidate: S): boolean =>
      typeof candidate.open === 'function' || typeof (candidate as StoreScheme).openDriver === 'function';
    if (loaded === undefined || typeof loaded.parse !== 'function' || !opens(loaded)) {
      throw new RepomemError(
        'PACKAGE_MISSING',
        `${entry.origin} does not provide a ${name}: ${what} (no ${exportName} export)`,
        {
          details: { scheme: name, package: entry.origin },
        },
      );
    }
    table.set(name, { loaded });
    return loaded;
  }
}

/** The registry behind {@link openStore} and {@link openCitationReader}, with the built-in schemes. */
export const defaultStoreRegistry: StoreRegistry = new StoreRegistry();

/** Open a store from a spec with the default registry (see {@link StoreRegistry.openStore}). */
export function openStore(
  spec: string | ResolvedSpec<StoreScheme> = DEFAULT_STORE_SPEC,
  options: OpenStoreOptions = {},
): Promise<MemoryStore> {
  return defaultStoreRegistry.openStore(spec, options);
}

/** Open a verified-memory backend from a spec with the default registry (see {@link StoreRegistry.openVerifiedBackend}). */
export function openVerifiedBackend(
  spec: string | ResolvedSpec<StoreScheme> = DEFAULT_STORE_SPEC,
  options: OpenStoreOptions = {},
): Promise<VerifiedMemoryBackend> {
  return defaultStoreRegistry.openVerifiedBackend(spec, options);
}

/** Open a task-record backend from a spec with the default registry (see {@link StoreRegistry.openTaskRecordBackend}). */
export function openTaskRecordBackend(
  spec: string | ResolvedSpec<StoreScheme> = DEFAULT_STORE_SPEC,
  options: OpenStoreOptions = {},
): Promise<TaskRecordBackend> {
  return defaultStoreRegistry.openTaskRecordBackend(spec, options);
}

/** Check a store from a spec with the default registry (see {@link StoreRegistry.diagnoseStore}). */
export function diagnoseStore(
  spec: string | ResolvedSpec<StoreScheme> = DEFAULT_STORE_SPEC,
  options: OpenStoreOptions = {},
): Promise<readonly StoreDiagnostic[]> {
  return defaultStoreRegistry.diagnoseStore(spec, options);
}

/** Open a citation reader from a spec with the default registry (see {@link StoreRegistry.openCitationReader}). */
export function openCitationReader(
  spec: string | ResolvedSpec<CitationReaderScheme>,
  options: OpenCitationReaderOptions = {},
): Promise<CitationReader> {
  return defaultStoreRegistry.openCitationReader(spec, options);
}

/** Register a store scheme or loader in the default registry (see {@link StoreRegistry.registerStoreScheme}). */
export function registerStoreScheme(scheme: StoreScheme | string, loader?: SchemeLoader): void {
  defaultStoreRegistry.registerStoreScheme(scheme, loader);
}

/** Register a citation-reader scheme or loader in the default registry. */
export function registerCitationReaderScheme(scheme: CitationReaderScheme | string, loader?: SchemeLoader): void {
  defaultStoreRegistry.registerCitationReaderScheme(scheme, loader);
}

/** Open a store and its record backends from one spec with the default registry (see {@link StoreRegistry.openStoreSet}). */
export function openStoreSet(
  spec: string | ResolvedSpec<StoreScheme> = DEFAULT_STORE_SPEC,
  options: OpenStoreOptions = {},
): Promise<StoreSet> {
  return defaultStoreRegistry.openStoreSet(spec, options);
}
