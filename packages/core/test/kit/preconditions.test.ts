// Why: the optional `preconditions` capability (AgentCore answers a write's pre-read from the head
// a `get` just read): the write pipeline asks it instead of `read`, with each change's expected
// version, and an answer that has gone stale never loses an update: the driver's own
// compare-and-swap turns it into a conflict naming the actual version, and on a per-key driver
// what the batch had applied is put back.
import { describe, expect, it } from 'vitest';
import { createInMemoryDriver, createStore, type KitDriver, type KitEntry } from '../../src/kit/index.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);

/** The reference driver (per-key) answering preconditions from a snapshot taken by `snapshot()`. */
function snapshotDriver() {
  const base = createInMemoryDriver();
  const seen = new Map<string, KitEntry | undefined>();
  const asked: (string | null | undefined)[][] = [];
  let reads = 0;
  const driver: KitDriver = {
    ...base,
    batch: 'per-key',
    async read(namespace, keys) {
      reads += 1;
      return base.read(namespace, keys);
    },
    preconditions: {
      async read(_namespace, keys, expected) {
        asked.push([...expected]);
        return keys.map((key, index) => {
          const entry = seen.get(key);
          return entry !== undefined && entry.version === expected[index] ? entry : undefined;
        });
      },
    },
  };
  return {
    driver,
    asked,
    reads: () => reads,
    snapshot: async (keys: string[]) => {
      const entries = await base.read('documents', keys);
      for (const [index, key] of keys.entries()) seen.set(key, entries[index]);
    },
  };
}

describe('the preconditions capability', () => {
  it('is asked instead of read, with each change expected version', async () => {
    const { driver, asked, reads, snapshot } = snapshotDriver();
    const store = createStore(driver);
    const first = await store.write([{ kind: 'put', path: 'a.md', content: utf8('a0\n'), expectedVersion: null }]);
    if (first.status !== 'committed') throw new Error('seeding failed');
    await snapshot(['a.md']);
    const before = reads();
    const version = first.versions['a.md'] as string;
    const result = await store.write([{ kind: 'put', path: 'a.md', content: utf8('a1\n'), expectedVersion: version }]);
    expect(result.status).toBe('committed');
    expect(reads()).toBe(before);
    expect(asked.at(-1)).toEqual([version]);
    expect(text((await store.get('a.md'))?.content)).toBe('a1\n');
  });

  it('a stale answer is a conflict naming the actual version, and a half-applied batch is put back', async () => {
    const { driver, snapshot } = snapshotDriver();
    const store = createStore(driver);
    const seeded = await store.write([
      { kind: 'put', path: 'a.md', content: utf8('a0\n') },
      { kind: 'put', path: 'b.md', content: utf8('b0\n') },
    ]);
    if (seeded.status !== 'committed') throw new Error('seeding failed');
    await snapshot(['a.md', 'b.md']);
    // Another writer moves b.md after the snapshot: the snapshot's answer for b.md is stale.
    const other = await store.write([{ kind: 'put', path: 'b.md', content: utf8('theirs\n') }]);
    if (other.status !== 'committed') throw new Error('other writer failed');
    const va = seeded.versions['a.md'] as string;
    const vb = seeded.versions['b.md'] as string;
    const result = await store.write([
      { kind: 'put', path: 'a.md', content: utf8('a1\n'), expectedVersion: va },
      { kind: 'put', path: 'b.md', content: utf8('b1\n'), expectedVersion: vb },
    ]);
    expect(result).toEqual({
      status: 'conflict',
      conflicts: [{ path: 'b.md', expected: vb, actual: other.versions['b.md'] }],
    });
    expect(text((await store.get('a.md'))?.content)).toBe('a0\n');
    expect((await store.get('a.md'))?.version).toBe(va);
    expect(text((await store.get('b.md'))?.content)).toBe('theirs\n');
  });
});
