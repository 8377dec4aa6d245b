// Why: shared setup of the verified-memory tests: a controllable clock, predictable ids, and a
// service over the document backend (in-memory store) that records every event it publishes.
import type { CitationReader } from '../../src/citations/index.js';
import { createInMemoryStore, type MemoryStore } from '../../src/store/index.js';
import {
  createDocumentRecordBackend,
  openVerifiedMemory,
  type TelemetryEvent,
  type VerifiedMemoryBackend,
  type VerifiedMemoryService,
} from '../../src/verified/index.js';

/** 2026-01-01T00:00:00Z. */
export const START_MS = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;

/** A clock that only moves when told to. */
export interface TestClock {
  now(): Date;
  advanceDays(days: number): void;
  advanceMinutes(minutes: number): void;
}

/** A clock starting at {@link START_MS}. */
export function testClock(): TestClock {
  let current = START_MS;
  return {
    now: () => new Date(current),
    advanceDays: (days) => {
      current += days * DAY_MS;
    },
    advanceMinutes: (minutes) => {
      current += minutes * 60_000;
    },
  };
}

/** ISO time `days` after {@link START_MS}. */
export function dayIso(days: number): string {
  return new Date(START_MS + days * DAY_MS).toISOString();
}

/** Sequential lowercase UUIDs. */
export function sequentialIds(): () => string {
  let n = 0;
  return () => {
    n += 1;
    return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
  };
}

/** A service and what the test needs to inspect it. */
export interface ServiceFixture {
  readonly service: VerifiedMemoryService;
  readonly backend: VerifiedMemoryBackend;
  readonly store: MemoryStore;
  readonly clock: TestClock;
  /** Every event passed to `onEvent`, in order. */
  readonly published: TelemetryEvent[];
}

/** A service over a fresh in-memory store (or `store`), with an optional citation reader. */
export function openFixture(
  options: { reader?: CitationReader; store?: MemoryStore; maxAgeDays?: number } = {},
): ServiceFixture {
  const store = options.store ?? createInMemoryStore();
  const backend = createDocumentRecordBackend(store);
  const clock = testClock();
  const published: TelemetryEvent[] = [];
  const service = openVerifiedMemory({
    backend,
    now: clock.now,
    newId: sequentialIds(),
    onEvent: (event) => {
      published.push(event);
    },
    ...(options.reader === undefined ? {} : { citations: options.reader }),
    ...(options.maxAgeDays === undefined ? {} : { maxAgeDays: options.maxAgeDays }),
  });
  return { service, backend, store, clock, published };
}

/** Await `action` and return what it threw (fails when it does not throw). */
export async function thrown(action: () => Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await action();
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected the call to throw');
}

/** A citation of `src/test.ts` line 1 (valid without a reader). */
export const CITATION = { path: 'src/test.ts', line_start: 1, line_end: 1 } as const;
