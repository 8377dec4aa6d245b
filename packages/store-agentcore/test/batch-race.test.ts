// Why: a batch is checked against every document's head before anything is appended, but another
// writer can slip in between the check and one document's append. The batch must then report the
// conflict and leave nothing of itself behind: the documents it had committed are put back. The
// interleaving is forced by holding the first append until a second store instance has written.

import { contentVersion } from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AgentCoreConnection,
  commitRegister,
  createAgentCoreStore,
  escapePath,
  hashedSessionId,
  namespaceOf,
} from '../src/index.js';
import type { AgentCoreEmulator } from '../src/testing/index.js';
import { emulatorConnection, emulatorStore, freshRepo, startEmulator } from './support.js';

let emulator: AgentCoreEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (bytes: Uint8Array | undefined): string => new TextDecoder().decode(bytes);

/** A connection whose appends all wait until `interleave` (started by the first one) is done. */
function holdFirstAppend(connection: AgentCoreConnection, interleave: () => Promise<void>): AgentCoreConnection {
  let held: Promise<void> | undefined;
  return {
    ...connection,
    async send(operation, request) {
      if (operation === 'CreateEvent') {
        held ??= interleave();
        await held;
      }
      return connection.send(operation, request);
    },
  };
}

describe('a batch that loses one document between its check and its append', () => {
  it('reports the conflict and puts back the documents it had committed', async () => {
    const repo = freshRepo();
    const other = emulatorStore(emulator, repo);
    const seeded = await other.write([
      { kind: 'put', path: 'a.md', content: utf8('a0\n') },
      { kind: 'put', path: 'b.md', content: utf8('b0\n') },
    ]);
    if (seeded.status !== 'committed') throw new Error('seeding failed');
    const va = seeded.versions['a.md'] as string;
    const vb = seeded.versions['b.md'] as string;
    let slipped: string | null = null;
    // The other writer is another process in real life: it commits b.md through the same chain
    // mechanism, outside this process's per-document queue (which would otherwise serialise them).
    const connection = holdFirstAppend(emulatorConnection(emulator), async () => {
      const content = utf8('b from the other writer\n');
      const result = await commitRegister(
        other.connection,
        {
          session: { actorId: other.actorId, sessionId: hashedSessionId('d', 'b.md') },
          namespace: namespaceOf([other.actorId, 'documents', escapePath('b.md')]),
          name: 'b.md',
        },
        undefined,
        { content, version: contentVersion(content) },
      );
      slipped = result.status === 'committed' ? result.version : null;
    });
    const store = createAgentCoreStore({ connection, repo });
    const result = await store.write([
      { kind: 'put', path: 'a.md', content: utf8('a1\n'), expectedVersion: va },
      { kind: 'put', path: 'b.md', content: utf8('b1\n'), expectedVersion: vb },
    ]);
    expect(slipped).not.toBeNull();
    expect(result).toEqual({ status: 'conflict', conflicts: [{ path: 'b.md', expected: vb, actual: slipped }] });
    expect(text((await other.get('a.md'))?.content)).toBe('a0\n');
    expect((await other.get('a.md'))?.version).toBe(va);
    expect(text((await other.get('b.md'))?.content)).toBe('b from the other writer\n');
    const listed = await other.list();
    expect(listed.map((entry) => [entry.path, entry.version])).toEqual([
      ['a.md', va],
      ['b.md', slipped],
    ]);
    await store.close();
    await other.close();
  });
});
