// Why: AgentCore Memory as a store kit driver. Each key is a register (register.ts): a chain of
// events in its own session (the truth, compare-and-swap by appending on the head that was read)
// and memory records in its own namespace (a materialised copy that scans and the service's
// retrieval read). Namespace `documents` is session `d` + hash of the path with records under
// `/{actorId}/documents/{escaped path}/`, and `state` is session `s` with records under
// `/{actorId}/state/{escaped key}/`, exactly where the pre-kit store kept them. Every append
// is its own compare-and-swap, so batches are `per-key` (core puts back a half-applied batch).
import {
  isDocumentPath,
  KIT_DRIVER_VERSION,
  type KitChange,
  type KitDriver,
  type KitEntry,
  type KitReadAllOptions,
  type KitScanOptions,
  type KitWriteResult,
  RepomemError,
  type StoredDocument,
} from '@repomem/core';
import type { AgentCoreConnection } from './connection.js';
import {
  escapePath,
  escapePrefix,
  hashedSessionId,
  namespaceOf,
  repositoryActorId,
  unescapePath,
} from './identifiers.js';
import { listRecords, type StoredRecord } from './records.js';
import {
  commitRegister,
  headVersion,
  MAX_REGISTER_BYTES,
  type MaterialisedValue,
  materialised,
  type RegisterAddress,
  type RegisterView,
  readRegister,
} from './register.js';

/** Options of {@link createAgentCoreDriver}. */
export interface AgentCoreDriverOptions {
  /** An open connection (see `openAgentCoreConnection`). */
  readonly connection: AgentCoreConnection;
  /** Repository `owner/name` the driver is scoped to (its actorId holds every key). */
  readonly repo: string;
  /** Close the connection with the driver (default true). */
  readonly ownsConnection?: boolean;
}

/** The AgentCore driver, with where it keeps things (for extraction jobs and diagnostics). */
export interface AgentCoreDriver extends KitDriver {
  readonly memoryId: string;
  readonly repo: string;
  /** The actorId the repository maps to. */
  readonly actorId: string;
  /** The namespace under which documents are materialised (`/{actorId}/documents/`). */
  readonly documentsNamespace: string;
  readonly connection: AgentCoreConnection;
}

/** A register as this instance last read or wrote it (its head saves a read on the next write). */
interface View extends RegisterView {
  readonly content: Uint8Array | undefined;
}

/** Versions the kit hands in are kept in event and record metadata, whose values allow few characters. */
const PLAIN_VERSION = /^[a-zA-Z0-9._:/=+@-]{1,200}$/;
const ENCODED = 'b64:';

function encodeVersion(version: string): string {
  if (PLAIN_VERSION.test(version) && version !== '-' && !version.startsWith(ENCODED)) return version;
  const encoded = `${ENCODED}${Buffer.from(version).toString('base64')}`;
  if (encoded.length > 256) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `version is too long for AgentCore metadata: ${version.slice(0, 40)}...`,
    );
  }
  return encoded;
}

function decodeVersion(version: string | null): string | null {
  if (version === null || !version.startsWith(ENCODED)) return version;
  return Buffer.from(version.slice(ENCODED.length), 'base64').toString();
}

const byKey = (a: { key: string }, b: { key: string }): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Keys read, and changes of a batch written, in parallel (each read is two parallel requests). */
const PARALLEL_READS = 16;
/** Registers whose last seen head is remembered. */
const MAX_VIEWS = 4096;

/**
 * A store kit driver on an AgentCore memory, scoped to one repository (no request is sent until
 * the first call). Pass it to `createStore`, or use `createAgentCoreStore`.
 */
export function createAgentCoreDriver(options: AgentCoreDriverOptions): AgentCoreDriver {
  const { connection, repo } = options;
  const actorId = repositoryActorId(repo);
  const documentsNamespace = namespaceOf([actorId, 'documents']);
  const views = new Map<string, View>();

  /** Where a namespace lives: its session kind, its records root and a key's name in events. */
  const space = (namespace: string) =>
    namespace === 'documents'
      ? { kind: 'd', root: documentsNamespace, name: (key: string) => key }
      : namespace === 'state'
        ? { kind: 's', root: namespaceOf([actorId, 'state']), name: (key: string) => key }
        : { kind: 'k', root: namespaceOf([actorId, 'kit', namespace]), name: (key: string) => `${namespace}:${key}` };
  const addressOf = (namespace: string, key: string): RegisterAddress => {
    const { kind, root, name } = space(namespace);
    let records: string | undefined;
    try {
      records = `${root}${escapePath(key)}/`;
      if (records.length > 1024) records = undefined;
    } catch {
      records = undefined;
    }
    return { session: { actorId, sessionId: hashedSessionId(kind, name(key)) }, namespace: records, name: name(key) };
  };
  const remember = (slot: string, view: View | undefined): void => {
    views.delete(slot);
    if (view === undefined) return;
    views.set(slot, view);
    if (views.size > MAX_VIEWS) views.delete(views.keys().next().value as string);
  };
  const entryOf = (key: string, view: View): KitEntry | undefined => {
    const version = decodeVersion(headVersion(view.head));
    if (version === null || view.content === undefined) return undefined;
    return { key, version, size: view.content.byteLength, value: view.content };
  };
  const readOne = async (namespace: string, key: string): Promise<KitEntry | undefined> => {
    const slot = `${namespace}\0${key}`;
    const value = await readRegister(connection, addressOf(namespace, key), views.get(slot)?.head?.height);
    remember(slot, value);
    return entryOf(key, value);
  };
  const read = async (
    namespace: string,
    keys: readonly string[],
    expected?: readonly (string | null | undefined)[],
  ) => {
    const out: (KitEntry | undefined)[] = [];
    for (let start = 0; start < keys.length; start += PARALLEL_READS) {
      const chunk = keys.slice(start, start + PARALLEL_READS).map(async (key, offset) => {
        const want = expected?.[start + offset];
        const known = views.get(`${namespace}\0${key}`);
        // A head this instance saw with the version the write expects: its write appends on that
        // head, so a stale one loses the append and is read again (a conflict, never a lost update).
        if (want !== undefined && known !== undefined && decodeVersion(headVersion(known.head)) === want) {
          return entryOf(key, known);
        }
        return readOne(namespace, key);
      });
      out.push(...(await Promise.all(chunk)));
    }
    return out;
  };

  /** The newest complete record set of each key under `prefix`, by key. */
  const materialisedUnder = async (namespace: string, prefix: string) => {
    // The service narrows by namespace prefix (escaping keeps prefixes); the key check is exact.
    const { root } = space(namespace);
    const records = await listRecords(connection, { namespacePath: `${root}${escapePrefix(prefix)}` });
    const grouped = new Map<string, StoredRecord[]>();
    for (const record of records) {
      if (!record.namespace.startsWith(root) || !record.namespace.endsWith('/')) continue;
      let key: string;
      try {
        key = unescapePath(record.namespace.slice(root.length, -1));
      } catch {
        continue;
      }
      if (!key.startsWith(prefix)) continue;
      grouped.set(key, [...(grouped.get(key) ?? []), record]);
    }
    const out: { key: string; version: string; value: MaterialisedValue }[] = [];
    for (const [key, list] of grouped) {
      const value = materialised(list);
      const version = decodeVersion(value?.version ?? null);
      if (value !== undefined && version !== null) out.push({ key, version, value });
    }
    return out.sort(byKey);
  };
  const scan = async (namespace: string, { prefix, values = true }: KitScanOptions): Promise<KitEntry[]> =>
    (await materialisedUnder(namespace, prefix)).map(({ key, version, value }) => ({
      key,
      version,
      size: value.size,
      ...(values ? { value: value.content() } : {}),
    }));

  const writeOne = async (change: KitChange): Promise<KitWriteResult> => {
    const slot = `${change.namespace}\0${change.key}`;
    const address = addressOf(change.namespace, change.key);
    const put = change.value !== null && change.version !== null;
    if (put && address.namespace === undefined) {
      throw new RepomemError(
        'INVALID_PATH',
        `path is too long for an AgentCore namespace once escaped (at most 1,024 characters): ${change.key.slice(0, 60)}...`,
        { details: { path: change.key } },
      );
    }
    const known = views.get(slot);
    const result = await commitRegister(
      connection,
      address,
      typeof change.expected === 'string' ? encodeVersion(change.expected) : change.expected,
      put ? { content: change.value as Uint8Array, version: encodeVersion(change.version as string) } : null,
      known === undefined ? {} : { known },
    );
    if (result.status === 'committed') {
      remember(slot, { ...result.view, content: put ? (change.value as Uint8Array) : undefined });
      return { status: 'committed' };
    }
    remember(slot, undefined);
    const conflict = { namespace: change.namespace, key: change.key, actual: decodeVersion(result.actual) };
    return { status: 'conflict', conflicts: [conflict] };
  };

  return {
    kit: KIT_DRIVER_VERSION,
    name: 'agentcore',
    batch: 'per-key',
    maxValueBytes: MAX_REGISTER_BYTES,
    memoryId: connection.memoryId,
    repo,
    actorId,
    documentsNamespace,
    connection,
    read: (namespace, keys) => read(namespace, keys),
    // A write starts from the head this instance last saw when it has the expected version.
    preconditions: { read },
    // A batch's documents are appended in parallel (each its own chain), as before the kit.
    concurrentWrites: { limit: PARALLEL_READS },
    scan,
    readAll: {
      // One paged listing of the materialised records, not two requests per document.
      async read(readOptions: KitReadAllOptions): Promise<StoredDocument[]> {
        const out: StoredDocument[] = [];
        for (const { key, version, value } of await materialisedUnder('documents', readOptions.prefix)) {
          if (!isDocumentPath(key) || readOptions.accept?.(key, value.size) === false) continue;
          const content = value.content();
          const document = { path: key, version, size: content.byteLength, content };
          if (readOptions.each === undefined) out.push(document);
          else readOptions.each(document);
        }
        return out;
      },
    },
    async write(changes) {
      // Per-key: core sends one change per call; several are applied in order up to a conflict.
      for (const change of changes) {
        const result = await writeOne(change);
        if (result.status === 'conflict') return result;
      }
      return { status: 'committed' };
    },
    async close() {
      views.clear();
      if (options.ownsConnection !== false) connection.close();
    },
  };
}
