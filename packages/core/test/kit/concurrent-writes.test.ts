// Why: the optional `concurrentWrites` capability (AgentCore appends a batch's documents in
// parallel): a per-key batch then runs up to `limit` single-change writes at once, never more,
// and a conflict still leaves nothing of the batch behind; without the capability the kit
// writes one change at a time, as before.
import { describe, expect, it } from 'vitest';
import { createInMemoryDriver, createStore, type KitDriver } from '../../src/kit/index.js';

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (bytes: Uint8Array | undefined): string | undefined =>
  bytes === undefined ? undefined : new TextDecoder().decode(bytes);

/** The reference driver as per-key, counting how many writes are in flight at most. */
function countingDriver(limit?: number, conflictOn?: string) {
  const base = createInMemoryDriver();
  let inFlight = 0;
  let most = 0;
  const driver: KitDriver = {
    ...base,
    batch: 'per-key',
    ...(limit === undefined ? {} : { concurrentWrites: { limit } }),
    async write(changes, metadata) {
      inFlight += 1;
      most = Math.max(most, inFlight);
      try {
        // Yield a few turns so that writes started together overlap.
        for (let turn = 0; turn < 3; turn++) await Promise.resolve();
        if (conflictOn !== undefined && changes[0]?.key === conflictOn) {
          return { status: 'conflict', conflicts: [{ namespace: 'documents', key: conflictOn, actual: 'v-other' }] };
        }
        return await base.write(changes, metadata);
      } finally {
        inFlight -= 1;
      }
    },
  };
  return { driver, most: () => most };
}

const batch = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    kind: 'put' as const,
    path: `notes/${index}.md`,
    content: utf8(`- note ${index}\n`),
  }));

describe('the concurrentWrites capability', () => {
  it('runs up to limit single-change writes of a per-key batch at once, never more', async () => {
    const { driver, most } = countingDriver(4);
    const store = createStore(driver);
    const result = await store.write(batch(10));
    expect(result.status).toBe('committed');
    expect(most()).toBe(4);
    expect((await store.list()).map((entry) => entry.path)).toHaveLength(10);
    expect(text((await store.get('notes/7.md'))?.content)).toBe('- note 7\n');
  });

  it('without it, a per-key batch is written one change at a time', async () => {
    const { driver, most } = countingDriver();
    const result = await createStore(driver).write(batch(6));
    expect(result.status).toBe('committed');
    expect(most()).toBe(1);
  });

  it('a conflict on one change puts back every change that committed', async () => {
    const { driver } = countingDriver(4, 'notes/5.md');
    const store = createStore(driver);
    const result = await store.write(batch(10));
    expect(result).toEqual({
      status: 'conflict',
      conflicts: [{ path: 'notes/5.md', expected: null, actual: 'v-other' }],
    });
    expect(await store.list()).toEqual([]);
  });
});
