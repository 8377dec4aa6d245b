// Why: a document edited hundreds of times must cost the same few requests to read and write as a
// new one: readers ask only for the newest bucket of events, not the whole history. Checked
// across bucket boundaries, with two instances racing while the chain crosses one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentCoreEmulator } from '../src/testing/index.js';
import { emulatorStore, freshRepo, startEmulator } from './support.js';

let emulator: AgentCoreEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

describe('a long chain', () => {
  it('after 250 edits a read and a bullet add still take a constant few requests', async () => {
    const repo = freshRepo();
    const writer = emulatorStore(emulator, repo);
    for (let edit = 0; edit < 250; edit++) {
      const result = await writer.write([{ kind: 'put', path: 'MEMORY.md', content: utf8(`edit ${edit}\n`) }]);
      expect(result.status).toBe('committed');
    }
    // The instance that wrote knows the chain's height: one round trip (records, two buckets).
    emulator.resetStats();
    expect(text((await writer.get('MEMORY.md'))?.content)).toBe('edit 249\n');
    expect(emulator.stats().requests).toBeLessThanOrEqual(3);
    await writer.close();
    // A new instance learns the height from the records first: two round trips, four requests.
    const reader = emulatorStore(emulator, repo);
    emulator.resetStats();
    const document = await reader.get('MEMORY.md');
    expect(text(document?.content)).toBe('edit 249\n');
    const readRequests = emulator.stats().requests;
    expect(readRequests).toBeLessThanOrEqual(4);
    emulator.resetStats();
    const result = await reader.write([
      {
        kind: 'put',
        path: 'MEMORY.md',
        content: utf8('edit 249\n- one more\n'),
        expectedVersion: document?.version ?? null,
      },
    ]);
    expect(result.status).toBe('committed');
    // Append, then re-read the one height, write the new records and delete the old ones.
    expect(emulator.stats().requests).toBeLessThanOrEqual(4);
    expect(text((await reader.get('MEMORY.md'))?.content)).toBe('edit 249\n- one more\n');
    expect((await reader.list()).map((entry) => entry.version)).toEqual([
      result.status === 'committed' ? result.versions['MEMORY.md'] : '',
    ]);
    await reader.close();
  }, 60_000);

  it('two instances racing across a bucket boundary lose no increment', async () => {
    const repo = freshRepo();
    const a = emulatorStore(emulator, repo);
    const b = emulatorStore(emulator, repo);
    for (let edit = 0; edit < 95; edit++) await a.write([{ kind: 'put', path: 'count.md', content: utf8('0') }]);
    const increment = async (store: typeof a): Promise<void> => {
      for (;;) {
        const current = await store.get('count.md');
        const value = Number(text(current?.content));
        const result = await store.write([
          {
            kind: 'put',
            path: 'count.md',
            content: utf8(String(value + 1)),
            expectedVersion: current?.version ?? null,
          },
        ]);
        if (result.status === 'committed') return;
      }
    };
    await Promise.all(Array.from({ length: 12 }, (_, index) => increment(index % 2 === 0 ? a : b)));
    const fresh = emulatorStore(emulator, repo);
    expect(text((await fresh.get('count.md'))?.content)).toBe('12');
    await Promise.all([a.close(), b.close(), fresh.close()]);
  }, 60_000);
});
