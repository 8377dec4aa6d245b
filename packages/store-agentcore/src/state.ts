// Why: the store's state API (sync cursors, thread state) kept apart from documents: each key is
// its own chain of events (session `s` + hash of the key) with the same compare-and-swap as a
// document, materialised as one record under `/{actorId}/state/{escaped key}/`, so listing by
// prefix is one hierarchical read and values stay out of document listings and search.
import {
  acquireKeyedMutex,
  type ExpectedVersion,
  type JsonValue,
  normalizeStateKey,
  normalizeStatePrefix,
  parseStateValue,
  type StateEntry,
  type StateListOptions,
  type StateWriteResult,
  type StoreState,
  serializeStateValue,
  stateValueVersion,
} from '@repomem/core';
import type { AgentCoreConnection } from './connection.js';
import { escapePath, escapePrefix, hashedSessionId, namespaceOf, unescapePath } from './identifiers.js';
import { listRecords, type StoredRecord } from './records.js';
import { commitRegister, headVersion, materialised, type RegisterAddress, readRegister } from './register.js';

/** What {@link createAgentCoreState} needs. */
export interface AgentCoreStateOptions {
  readonly connection: AgentCoreConnection;
  /** The repository's actorId. */
  readonly actorId: string;
  /** Throws `STORE_CLOSED` once the store is closed. */
  readonly assertOpen: () => void;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** The state API of an AgentCore store. */
export function createAgentCoreState(options: AgentCoreStateOptions): StoreState {
  const { connection, actorId, assertOpen } = options;
  const stateNamespace = namespaceOf([actorId, 'state']);
  const addressOf = (key: string): RegisterAddress => ({
    session: { actorId, sessionId: hashedSessionId('s', key) },
    namespace: namespaceOf([actorId, 'state', escapePath(key, 'state key')]),
    name: key,
  });
  const conflict = (expected: ExpectedVersion, actual: string | null): StateWriteResult => ({
    status: 'conflict',
    expected: expected ?? null,
    actual,
  });
  const write = async (key: string, text: string | null, expected: ExpectedVersion): Promise<StateWriteResult> => {
    const release = await acquireKeyedMutex(`agentcore-state:${connection.memoryId}:${actorId}:${key}`);
    try {
      assertOpen();
      const result = await commitRegister(
        connection,
        addressOf(key),
        expected,
        text === null ? null : { content: encoder.encode(text), version: stateValueVersion(text) },
      );
      return result.status === 'committed'
        ? { status: 'committed', version: result.version }
        : conflict(expected, result.actual);
    } finally {
      release();
    }
  };
  return {
    async get(key: string): Promise<StateEntry | undefined> {
      assertOpen();
      const normalized = normalizeStateKey(key);
      const value = await readRegister(connection, addressOf(normalized));
      const version = headVersion(value.head);
      if (version === null || value.content === undefined) return undefined;
      return { key: normalized, value: parseStateValue(normalized, decoder.decode(value.content)), version };
    },
    async put(key: string, value: JsonValue, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
      assertOpen();
      const normalized = normalizeStateKey(key);
      return write(normalized, serializeStateValue(normalized, value), expectedVersion);
    },
    async delete(key: string, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
      assertOpen();
      return write(normalizeStateKey(key), null, expectedVersion);
    },
    async list(listOptions: StateListOptions = {}): Promise<StateEntry[]> {
      assertOpen();
      const prefix = normalizeStatePrefix(listOptions.prefix);
      const records = await listRecords(connection, { namespacePath: `${stateNamespace}${escapePrefix(prefix)}` });
      const byKey = new Map<string, StoredRecord[]>();
      for (const record of records) {
        if (!record.namespace.startsWith(stateNamespace) || !record.namespace.endsWith('/')) continue;
        let key: string;
        try {
          key = unescapePath(record.namespace.slice(stateNamespace.length, -1));
        } catch {
          continue;
        }
        if (!key.startsWith(prefix)) continue;
        const list = byKey.get(key) ?? [];
        list.push(record);
        byKey.set(key, list);
      }
      const entries: StateEntry[] = [];
      for (const [key, list] of byKey) {
        const value = materialised(list);
        if (value === undefined) continue;
        entries.push({ key, value: parseStateValue(key, decoder.decode(value.content())), version: value.version });
      }
      return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}
