// Why: state values (sync cursors, thread state) need the same no-lost-update rule on every
// backend. Over a kit driver they are one namespace of JSON values, each written with the
// driver's single-key compare-and-swap, so no driver implements state itself.
import { RepomemError } from '../errors.js';
import type { ExpectedVersion } from '../store/contract.js';
import type { JsonValue, StateEntry, StateListOptions, StateWriteResult, StoreState } from '../store/state-contract.js';
import {
  normalizeStateKey,
  normalizeStatePrefix,
  parseStateValue,
  serializeStateValue,
  stateValueVersion,
} from '../store/state-values.js';
import { checkEntry } from './check-driver.js';
import type { KitDriver, KitEntry } from './driver.js';
import { storedVersion } from './kit-write.js';

/** Namespace of state values. */
export const STATE_NAMESPACE = 'state';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function checkExpected(key: string, expected: ExpectedVersion): void {
  if (expected !== undefined && expected !== null && typeof expected !== 'string') {
    throw new RepomemError('INVALID_ARGUMENT', `expectedVersion of ${key} must be a string, null or undefined`, {
      details: { key },
    });
  }
}

function toEntry(driver: KitDriver, key: string, entry: KitEntry): StateEntry {
  checkEntry(driver, entry, key, true);
  let text: string;
  try {
    text = decoder.decode(entry.value);
  } catch (error) {
    throw new RepomemError('INVALID_DOCUMENT', `state value of ${key} is not UTF-8`, {
      cause: error,
      details: { key },
    });
  }
  return { key, value: parseStateValue(key, text), version: entry.version };
}

/** The state API over `driver`'s `state` namespace; `assertOpen` runs before every call. */
export function createKitState(driver: KitDriver, assertOpen: () => void): StoreState {
  const write = async (key: string, text: string | null, expected: ExpectedVersion): Promise<StateWriteResult> => {
    const version = text === null ? null : stateValueVersion(text);
    const result = await driver.write([
      {
        namespace: STATE_NAMESPACE,
        key,
        value: text === null ? null : encoder.encode(text),
        version,
        ...(expected === undefined ? {} : { expected }),
      },
    ]);
    if (result.status === 'committed')
      return { status: 'committed', version: storedVersion(driver, result, 0, version) };
    return { status: 'conflict', expected: expected ?? null, actual: result.conflicts[0]?.actual ?? null };
  };
  return {
    async get(key: string): Promise<StateEntry | undefined> {
      assertOpen();
      const normalized = normalizeStateKey(key);
      const [entry] = await driver.read(STATE_NAMESPACE, [normalized]);
      return entry === undefined ? undefined : toEntry(driver, normalized, entry);
    },
    async put(key: string, value: JsonValue, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
      assertOpen();
      const normalized = normalizeStateKey(key);
      checkExpected(normalized, expectedVersion);
      return write(normalized, serializeStateValue(normalized, value), expectedVersion);
    },
    async delete(key: string, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
      assertOpen();
      const normalized = normalizeStateKey(key);
      checkExpected(normalized, expectedVersion);
      return write(normalized, null, expectedVersion);
    },
    async list(options: StateListOptions = {}): Promise<StateEntry[]> {
      assertOpen();
      const prefix = normalizeStatePrefix(options.prefix);
      const entries = await driver.scan(STATE_NAMESPACE, { prefix });
      return entries
        .filter((entry) => entry.key.startsWith(prefix))
        .map((entry) => toEntry(driver, entry.key, entry))
        .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}
