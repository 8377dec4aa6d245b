// Why: LangGraph.js keeps long-term memory (across threads) in a `BaseStore`; this is one over any
// repomem store, so a graph's memories live in the same SQLite file, directory, git branch or
// PostgreSQL database as the rest of the repository's memory, searchable by repomem and diffable
// in git. `batch` answers reads against the store as it was before the batch (as LangGraph's
// `InMemoryStore` does), then writes every put and delete of the batch in one write guarded by
// the versions it read, re-reading and retrying when another writer got there first.
import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchItem,
  type SearchOperation,
  validateNamespace,
} from '@langchain/langgraph-checkpoint';
import {
  createSemanticIndex,
  type Embedder,
  isSearchablePath,
  type MemoryStore,
  normalizeDocumentPath,
  type OpenStoreOptions,
  openStore,
  RepomemError,
  type StoredDocument,
  type WriteOperation,
} from '@repomem/core';
import { checkValue, type ItemDocument, parseItem, serializeItem } from './item-document.js';
import { selectNamespaces } from './namespaces.js';
import { DEFAULT_ITEMS_FOLDER, itemPath, namespaceFolder, parseItemPath } from './paths.js';
import { listItemPaths, readItems, type StoredItem } from './read-items.js';
import { type SemanticSearch, searchItems } from './search.js';

/** Options of {@link RepomemStore}. */
export interface RepomemStoreOptions {
  /** The repomem store that keeps the items (any: `openStore(spec)`, `openSqliteStore`, ...). */
  readonly store: MemoryStore;
  /** Folder of the memory tree under which items are kept (default `langgraph`). */
  readonly folder?: string;
  /** Hybrid search: a semantic index over the same store, fused with lexical ranking. */
  readonly semantic?: SemanticSearch;
  /**
   * Hybrid search with this embedder: a semantic index over the same store is made with core's
   * `createSemanticIndex` (vectors kept under `.repomem/vectors/`). Give this or `semantic`.
   */
  readonly embedder?: Embedder;
  /** Close `store` when this store is closed (default `false`: the caller owns it). */
  readonly closeStore?: boolean;
  /** The clock of created and updated times (default `() => new Date()`). */
  readonly now?: () => Date;
  /** Attempts of a batch whose writes meet a concurrent writer (default 5). */
  readonly attempts?: number;
}

/** Options of {@link RepomemStore.open}: how to open the spec, and the store's own options. */
export interface OpenRepomemStoreOptions extends OpenStoreOptions, Omit<RepomemStoreOptions, 'store' | 'closeStore'> {}

type AnyOperation = GetOperation | SearchOperation | PutOperation | ListNamespacesOperation;

const isGet = (operation: AnyOperation): operation is GetOperation =>
  'key' in operation && 'namespace' in operation && !('value' in operation);
const isPut = (operation: AnyOperation): operation is PutOperation => 'value' in operation;
const isSearch = (operation: AnyOperation): operation is SearchOperation => 'namespacePrefix' in operation;

function checkFolder(folder: string): string {
  const normalized = normalizeDocumentPath(folder);
  // Documents under `.repomem/` are repomem's own and never searched.
  if (!isSearchablePath(`${normalized}/item.json`)) {
    throw new RepomemError('INVALID_ARGUMENT', `folder ${folder} is one repomem reserves or never searches`);
  }
  return normalized;
}

/**
 * A LangGraph.js `BaseStore` on a repomem store. Items are JSON documents at
 * `<folder>/<label>/.../<key>.json` (labels and keys escaped reversibly, see `encodeSegment`).
 *
 * @example
 * ```ts
 * const store = await RepomemStore.open('sqlite:.repomem/repomem.db', { repo: 'acme/app' });
 * await store.put(['users', 'u1'], 'prefs', { theme: 'dark' });
 * ```
 */
export class RepomemStore extends BaseStore {
  readonly #store: MemoryStore;
  readonly #folder: string;
  readonly #semantic: SemanticSearch | undefined;
  readonly #closeStore: boolean;
  readonly #now: () => Date;
  readonly #attempts: number;

  /** A store over an open repomem store. */
  constructor(options: RepomemStoreOptions) {
    super();
    if (options === null || typeof options !== 'object' || options.store === undefined) {
      throw new RepomemError('INVALID_ARGUMENT', 'RepomemStore needs { store }');
    }
    this.#store = options.store;
    this.#folder = checkFolder(options.folder ?? DEFAULT_ITEMS_FOLDER);
    if (options.semantic !== undefined && options.embedder !== undefined) {
      throw new RepomemError('INVALID_ARGUMENT', 'give either semantic or embedder, not both');
    }
    this.#semantic =
      options.embedder === undefined
        ? options.semantic
        : { index: createSemanticIndex({ store: options.store, embedder: options.embedder }) };
    this.#closeStore = options.closeStore ?? false;
    this.#now = options.now ?? (() => new Date());
    this.#attempts = options.attempts ?? 5;
    if (!Number.isInteger(this.#attempts) || this.#attempts < 1) {
      throw new RepomemError('INVALID_ARGUMENT', `attempts must be a positive integer (got ${this.#attempts})`);
    }
  }

  /** Open the repomem store a spec names (`sqlite:...`, `dir:...`, `git:...`, `postgres://...`) and a `RepomemStore` on it; closing it closes that store. */
  static async open(spec: string | undefined, options: OpenRepomemStoreOptions = {}): Promise<RepomemStore> {
    const { folder, semantic, embedder, now, attempts, ...open } = options;
    const store = await openStore(spec, open);
    try {
      return new RepomemStore({
        store,
        closeStore: true,
        ...(folder === undefined ? {} : { folder }),
        ...(semantic === undefined ? {} : { semantic }),
        ...(embedder === undefined ? {} : { embedder }),
        ...(now === undefined ? {} : { now }),
        ...(attempts === undefined ? {} : { attempts }),
      });
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  /** The repomem store under this one (for verified memory, hydration, repomem search...). */
  get memoryStore(): MemoryStore {
    return this.#store;
  }

  /** Folder of the memory tree that holds the items. */
  get folder(): string {
    return this.#folder;
  }

  /** Execute operations: reads see the store as before the batch, then all writes apply in one guarded write. */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    const puts = new Map<string, PutOperation>();
    for (const operation of operations as AnyOperation[]) {
      if ('namespace' in operation) validateNamespace(operation.namespace, { allowReservedRoot: true });
      if (isGet(operation)) results.push(await this.#get(operation));
      else if (isSearch(operation)) results.push(await this.#search(operation));
      else if (isPut(operation)) {
        if (operation.value !== null) checkValue(operation.value, `put ${JSON.stringify(operation.key)}`);
        puts.set(itemPath(this.#folder, operation.namespace, operation.key), operation);
        results.push(null); // What InMemoryStore answers for a put.
      } else if ('matchConditions' in operation || 'limit' in operation)
        results.push(await this.#listNamespaces(operation));
      else throw new RepomemError('INVALID_ARGUMENT', `unknown store operation ${JSON.stringify(operation)}`);
    }
    if (puts.size > 0) await this.#write(puts);
    return results as OperationResults<Op>;
  }

  /** Close the repomem store when this store owns it (opened with {@link RepomemStore.open} or `closeStore`). */
  async close(): Promise<void> {
    if (this.#closeStore) await this.#store.close();
  }

  #item(namespace: string[], key: string, document: ItemDocument): Item {
    return {
      namespace,
      key,
      value: document.value,
      createdAt: new Date(document.created_at),
      updatedAt: new Date(document.updated_at),
    };
  }

  async #get(operation: GetOperation): Promise<Item | null> {
    const path = itemPath(this.#folder, operation.namespace, operation.key);
    const stored = await this.#store.get(path);
    if (stored === undefined) return null;
    return this.#item([...operation.namespace], operation.key, parseItem(path, stored.content));
  }

  async #search(operation: SearchOperation): Promise<SearchItem[]> {
    if (operation.namespacePrefix.length > 0) validateNamespace(operation.namespacePrefix, { allowReservedRoot: true });
    const prefix = namespaceFolder(this.#folder, operation.namespacePrefix);
    const items: StoredItem[] = await readItems(this.#store, this.#folder, prefix);
    const found = await searchItems(this.#store, items, prefix, operation, this.#semantic);
    return found.map(({ item, score }) => ({ ...this.#item(item.namespace, item.key, item.document), score }));
  }

  async #listNamespaces(operation: ListNamespacesOperation): Promise<string[][]> {
    const paths = await listItemPaths(this.#store, this.#folder, `${this.#folder}/`);
    const namespaces = new Map<string, string[]>();
    for (const path of paths) {
      const parsed = parseItemPath(this.#folder, path);
      if (parsed !== undefined) namespaces.set(JSON.stringify(parsed.namespace), parsed.namespace);
    }
    return selectNamespaces(namespaces.values(), operation);
  }

  async #write(puts: ReadonlyMap<string, PutOperation>): Promise<void> {
    const paths = [...puts.keys()];
    for (let attempt = 1; attempt <= this.#attempts; attempt += 1) {
      const current: (StoredDocument | undefined)[] =
        this.#store.getMany === undefined
          ? await Promise.all(paths.map((path) => this.#store.get(path)))
          : await this.#store.getMany(paths);
      const now = this.#now().toISOString();
      const writes: WriteOperation[] = [];
      paths.forEach((path, index) => {
        const operation = puts.get(path) as PutOperation;
        const existing = current[index];
        if (operation.value === null) {
          if (existing !== undefined) writes.push({ kind: 'delete', path, expectedVersion: existing.version });
          return;
        }
        const created = existing === undefined ? now : parseItem(path, existing.content).created_at;
        const document: ItemDocument = {
          namespace: [...operation.namespace],
          key: operation.key,
          value: checkValue(operation.value, `put ${JSON.stringify(operation.key)}`),
          created_at: created,
          updated_at: now,
        };
        writes.push({
          kind: 'put',
          path,
          content: serializeItem(document),
          expectedVersion: existing?.version ?? null,
        });
      });
      if (writes.length === 0) return;
      const result = await this.#store.write(writes, {
        message: `chore(memory): langgraph store: ${writes.length} item${writes.length === 1 ? '' : 's'}`,
      });
      if (result.status === 'committed') return;
    }
    throw new RepomemError(
      'CONFLICT',
      `items changed under ${this.#attempts} attempts of one batch; nothing was written`,
      {
        details: { paths },
      },
    );
  }
}
