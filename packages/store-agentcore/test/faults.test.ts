// Why: throttling, server errors, connection resets and responses cut mid-body are normal for a
// network service. With 20% of requests failing that way over 200 operations, every write the
// store acknowledged must be present exactly once, and every operation that failed must have
// been reported to its caller (thrown), never silently dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentCoreStore } from '../src/index.js';
import type { AgentCoreEmulator } from '../src/testing/index.js';
import { emulatorConnection, freshRepo, startEmulator } from './support.js';

let emulator: AgentCoreEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const decoder = new TextDecoder();
const encoder = new TextEncoder();

describe('faults on 20% of requests', () => {
  it('200 bullet adds over 4 files: every acknowledged add present once, every failure reported', async () => {
    const repo = freshRepo();
    const store = createAgentCoreStore({ connection: emulatorConnection(emulator), repo });
    emulator.resetStats();
    emulator.setFaults({ rate: 0.2, kinds: ['throttle', 'server-error', 'reset', 'truncated'], seed: 42 });
    const acknowledged: string[] = [];
    const reported: string[] = [];
    const files = ['MEMORY.md', 'PROJECT.md', 'daily/2026-05-01.md', 'notes/faults.md'];
    const addBullet = async (path: string, line: string): Promise<void> => {
      for (;;) {
        const current = await store.get(path);
        const text = current === undefined ? '' : decoder.decode(current.content);
        const result = await store.write([
          { kind: 'put', path, content: encoder.encode(`${text}${line}\n`), expectedVersion: current?.version ?? null },
        ]);
        if (result.status === 'committed') return;
      }
    };
    // Four writers in parallel (one per file), 50 adds each.
    await Promise.all(
      files.map(async (path, fileIndex) => {
        for (let index = 0; index < 50; index++) {
          const line = `- file ${fileIndex} add ${index}`;
          try {
            await addBullet(path, line);
            acknowledged.push(line);
          } catch (error) {
            expect((error as { code?: string }).code).toBe('BACKEND_UNAVAILABLE');
            reported.push(line);
          }
        }
      }),
    );
    const injected = emulator.stats().faults;
    emulator.setFaults(undefined);
    expect(injected).toBeGreaterThan(50);
    expect(acknowledged.length + reported.length).toBe(200);
    const stored: string[] = [];
    for (const path of files) {
      const document = await store.get(path);
      stored.push(
        ...decoder
          .decode(document?.content ?? new Uint8Array())
          .split('\n')
          .filter(Boolean),
      );
    }
    for (const line of acknowledged) expect(stored).toContain(line);
    expect(new Set(stored).size).toBe(stored.length);
    // The listing (the materialised records) agrees with the chains.
    const listed = await store.list();
    for (const path of files) {
      const document = await store.get(path);
      expect(listed.find((entry) => entry.path === path)?.version).toBe(document?.version);
    }
    await store.close();
  }, 120_000);
});
