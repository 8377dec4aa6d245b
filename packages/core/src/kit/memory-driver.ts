// Why: the reference driver with no I/O, and the shortest reading of the driver contract: maps of
// versioned bytes, a batch checked and applied without awaiting in between (so it is atomic and
// isolated within the process), a sorted scan, and time-to-live by expiry on read.
import { RepomemError } from '../errors.js';
import { DEFAULT_MAX_DOCUMENT_BYTES } from '../store/store-closed.js';
import { KIT_DRIVER_VERSION, type KitChange, type KitConflict, type KitDriver, type KitEntry } from './driver.js';

/** Options of {@link createInMemoryDriver}. */
export interface InMemoryDriverOptions {
  /** Largest value held, in bytes (default 16 MiB). */
  readonly maxValueBytes?: number;
  /** Clock for time-to-live (default `Date.now`). */
  readonly now?: () => number;
  /**
   * Declare the `revision` capability, a counter of committed `documents` writes (default
   * `false`: the store hashes its listing). Expiry is not a write, so do not combine it with
   * time-to-live values in `documents`.
   */
  readonly revisionCounter?: boolean;
}

interface Slot {
  readonly value: Uint8Array;
  readonly version: string;
  readonly expiresAt?: number;
}

/** A driver keeping everything in memory (nothing survives the process). */
export function createInMemoryDriver(options: InMemoryDriverOptions = {}): KitDriver {
  const maxValueBytes = options.maxValueBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  const now = options.now ?? Date.now;
  const spaces = new Map<string, Map<string, Slot>>();
  let closed = false;
  let documentWrites = 0;
  const space = (namespace: string): Map<string, Slot> => {
    if (closed) throw new RepomemError('STORE_CLOSED', 'the memory driver is closed');
    let map = spaces.get(namespace);
    if (map === undefined) {
      map = new Map();
      spaces.set(namespace, map);
    }
    return map;
  };
  const live = (slot: Slot | undefined): Slot | undefined =>
    slot === undefined || (slot.expiresAt !== undefined && slot.expiresAt <= now()) ? undefined : slot;
  const entry = (key: string, slot: Slot, withValue: boolean): KitEntry => ({
    key,
    version: slot.version,
    size: slot.value.byteLength,
    ...(withValue ? { value: new Uint8Array(slot.value) } : {}),
  });

  const driver: KitDriver = {
    kit: KIT_DRIVER_VERSION,
    name: 'memory',
    batch: 'atomic',
    maxValueBytes,
    timeToLive: { granularitySeconds: 0 },
    async read(namespace, keys) {
      const map = space(namespace);
      return keys.map((key) => {
        const slot = live(map.get(key));
        return slot === undefined ? undefined : entry(key, slot, true);
      });
    },
    async scan(namespace, { prefix, values = true }) {
      const out: KitEntry[] = [];
      for (const [key, slot] of space(namespace)) {
        if (key.startsWith(prefix) && live(slot) !== undefined) out.push(entry(key, slot, values));
      }
      return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async write(changes: readonly KitChange[]) {
      const conflicts: KitConflict[] = [];
      for (const change of changes) {
        const actual = live(space(change.namespace).get(change.key))?.version ?? null;
        if (change.expected !== undefined && change.expected !== actual) {
          conflicts.push({ namespace: change.namespace, key: change.key, actual });
        }
        if (change.value !== null && change.value.byteLength > maxValueBytes) {
          throw new RepomemError('FILE_TOO_LARGE', `value of ${change.key} is over ${maxValueBytes} bytes`);
        }
      }
      if (conflicts.length > 0) return { status: 'conflict', conflicts };
      if (changes.some((change) => change.namespace === 'documents')) documentWrites += 1;
      for (const change of changes) {
        const map = space(change.namespace);
        if (change.value === null || change.version === null) map.delete(change.key);
        else {
          map.set(change.key, {
            value: new Uint8Array(change.value),
            version: change.version,
            ...(change.expiresAt === undefined ? {} : { expiresAt: change.expiresAt }),
          });
        }
      }
      return { status: 'committed' };
    },
    async close() {
      closed = true;
      spaces.clear();
    },
  };
  if (options.revisionCounter !== true) return driver;
  return {
    ...driver,
    revision: {
      async current() {
        space('documents');
        return String(documentWrites);
      },
    },
  };
}
