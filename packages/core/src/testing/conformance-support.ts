// Why: shared plumbing of the conformance groups: one fresh store per test, raw persistence
// checks, byte comparison with readable diffs, and error-code assertions that work even when the
// store and the suite load different copies of RepomemError (ESM vs CJS bundles).
import type { MemoryStore, StoredDocument, WriteResult } from '../store/contract.js';
import { expectRepomemErrorCode, registerPerTestSubject } from './conformance-lifecycle.js';
import type { ConformanceTestBody, StoreConformanceOptions } from './conformance-types.js';

/** Helpers handed to every conformance group. */
export interface ConformanceHarness<S extends MemoryStore = MemoryStore> {
  /** The options the suite was started with. */
  readonly options: StoreConformanceOptions<S>;
  /** The store of the running test. */
  store(): S;
  /** Declare a test with the suite's timeout. */
  test(name: string, body: ConformanceTestBody): void;
  /** Declare a test that needs `capable`; otherwise it is skipped (or passes early) saying why. */
  testIf(capable: (store: S) => boolean, reason: string, name: string, body: () => Promise<void>): void;
  /** Assert `action` rejects with a repomem error of `code`. */
  expectError(action: () => Promise<unknown>, code: string): Promise<void>;
  /** Assert two byte arrays are identical. */
  expectBytes(actual: Uint8Array | undefined, expected: Uint8Array, label: string): void;
  /** Assert the document is stored (via `get`, and `rawRead` when given) with exactly `expected`. */
  expectStored(path: string, expected: Uint8Array): Promise<StoredDocument>;
  /** Assert the document is absent (via `get`, `list`, and `rawRead` when given). */
  expectAbsent(path: string): Promise<void>;
  /** Assert the store holds exactly `paths` (via `list`, and `rawList` when given). */
  expectPaths(paths: readonly string[]): Promise<void>;
  /** Put documents unconditionally and return the committed result. */
  seed(
    documents: Readonly<Record<string, string | Uint8Array>>,
  ): Promise<Extract<WriteResult, { status: 'committed' }>>;
}

/** UTF-8 encode. */
export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** UTF-8 decode (lenient; a byte order mark is kept). */
export function text(bytes: Uint8Array | undefined): string | undefined {
  return bytes === undefined ? undefined : new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/** Build the harness for `options`; registers the per-test store lifecycle hooks in the current group. */
export function createHarness<S extends MemoryStore>(options: StoreConformanceOptions<S>): ConformanceHarness<S> {
  const { runner } = options;
  const { expect } = runner;
  const timeout = options.timeoutMs ?? 30_000;
  const store = registerPerTestSubject(runner, options.createStore, options.teardown, 'store');

  const harness: ConformanceHarness<S> = {
    options,
    store,
    test(name, body) {
      runner.it(name, body, timeout);
    },
    testIf(capable, reason, name, body) {
      runner.it(
        name,
        async (context) => {
          if (!capable(store())) {
            context?.skip?.(reason);
            return;
          }
          await body();
        },
        timeout,
      );
    },
    expectError: (action, code) => expectRepomemErrorCode(expect, action, code),
    expectBytes(actual, expected, label) {
      expect(actual, `${label}: bytes present`).toBeDefined();
      if (actual === undefined) return;
      if (actual.byteLength <= 4096 && expected.byteLength <= 4096) {
        expect(hex(actual), `${label}: bytes (hex)`).toBe(hex(expected));
      } else {
        expect(actual.byteLength, `${label}: byte length`).toBe(expected.byteLength);
        expect(sameBytes(actual, expected), `${label}: bytes identical`).toBe(true);
      }
    },
    async expectStored(path, expected) {
      const document = await store().get(path);
      expect(document, `get(${path})`).toBeDefined();
      const found = document as StoredDocument;
      expect(found.path).toBe(path);
      expect(found.size).toBe(expected.byteLength);
      harness.expectBytes(found.content, expected, `get(${path})`);
      if (options.rawRead) harness.expectBytes(await options.rawRead(store(), path), expected, `persisted ${path}`);
      return found;
    },
    async expectAbsent(path) {
      expect(await store().get(path), `get(${path})`).toBeUndefined();
      const listed = (await store().list()).map((entry) => entry.path);
      expect(listed).not.toContain(path);
      if (options.rawRead) expect(await options.rawRead(store(), path), `persisted ${path}`).toBeUndefined();
    },
    async expectPaths(paths) {
      const sorted = [...paths].sort();
      expect((await store().list()).map((entry) => entry.path)).toEqual(sorted);
      if (options.rawList) expect([...(await options.rawList(store()))].sort(), 'persisted paths').toEqual(sorted);
    },
    async seed(documents) {
      const result = await store().write(
        Object.entries(documents).map(([path, value]) => ({
          kind: 'put' as const,
          path,
          content: typeof value === 'string' ? utf8(value) : value,
        })),
      );
      expect(result.status).toBe('committed');
      if (result.status !== 'committed') throw new Error('conformance: seeding failed');
      return result;
    },
  };
  return harness;
}
