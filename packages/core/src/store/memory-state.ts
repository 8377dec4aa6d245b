// Why: the reference implementation of the state API with no I/O: the in-memory store uses it,
// and it is the simplest reading of what the state contract means (exact versions, check and
// apply in one synchronous step, values copied in and out).
import type { ExpectedVersion } from './contract.js';
import type { JsonValue, StateEntry, StateListOptions, StateWriteResult, StoreState } from './state-contract.js';
import {
  normalizeStateKey,
  normalizeStatePrefix,
  parseStateValue,
  serializeStateValue,
  stateValueVersion,
} from './state-values.js';
import { expectationHolds } from './write-batch.js';

interface Slot {
  readonly text: string;
  readonly version: string;
}

/**
 * A state map held in memory. `assertOpen` runs before every call (a closed store throws
 * `STORE_CLOSED` from it).
 */
export function createInMemoryState(assertOpen: () => void = () => {}): StoreState {
  const slots = new Map<string, Slot>();
  const entry = (key: string, slot: Slot): StateEntry => ({
    key,
    value: parseStateValue(key, slot.text),
    version: slot.version,
  });
  const conflict = (expected: ExpectedVersion, actual: string | null): StateWriteResult => ({
    status: 'conflict',
    expected: expected ?? null,
    actual,
  });
  return {
    async get(key: string): Promise<StateEntry | undefined> {
      assertOpen();
      const normalized = normalizeStateKey(key);
      const slot = slots.get(normalized);
      return slot === undefined ? undefined : entry(normalized, slot);
    },
    async put(key: string, value: JsonValue, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
      assertOpen();
      const normalized = normalizeStateKey(key);
      const text = serializeStateValue(normalized, value);
      const actual = slots.get(normalized)?.version ?? null;
      if (!expectationHolds(expectedVersion, actual)) return conflict(expectedVersion, actual);
      const version = stateValueVersion(text);
      slots.set(normalized, { text, version });
      return { status: 'committed', version };
    },
    async delete(key: string, expectedVersion?: ExpectedVersion): Promise<StateWriteResult> {
      assertOpen();
      const normalized = normalizeStateKey(key);
      const actual = slots.get(normalized)?.version ?? null;
      if (!expectationHolds(expectedVersion, actual)) return conflict(expectedVersion, actual);
      slots.delete(normalized);
      return { status: 'committed', version: null };
    },
    async list(options: StateListOptions = {}): Promise<StateEntry[]> {
      assertOpen();
      const prefix = normalizeStatePrefix(options.prefix);
      return [...slots.entries()]
        .filter(([key]) => key.startsWith(prefix))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, slot]) => entry(key, slot));
    },
  };
}
