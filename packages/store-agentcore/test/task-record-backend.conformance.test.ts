// Why: the native task-record backend passes core's task-record conformance suite unmodified,
// through the real SDK client against the emulator; each test gets a fresh memory.
import type { TaskRecordBackend } from '@repomem/core';
import { runTaskRecordBackendConformance } from '@repomem/core/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAgentCoreTaskRecordBackend, listRecords, taskRecordNamespace } from '../src/index.js';
import type { AgentCoreEmulator } from '../src/testing/index.js';
import { emulatorConnection, startEmulator } from './support.js';

const MEMORIES = Array.from({ length: 120 }, (_, index) => `tasks-${String(index).padStart(10, '0')}`);
let emulator: AgentCoreEmulator;
let next = 0;
beforeAll(async () => {
  emulator = await startEmulator({ memories: MEMORIES });
});
afterAll(async () => {
  await emulator.close();
});

runTaskRecordBackendConformance<TaskRecordBackend>({
  name: 'agentcore task-record backend conformance',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () => {
    const memoryId = MEMORIES[next++ % MEMORIES.length] as string;
    return createAgentCoreTaskRecordBackend({ connection: emulatorConnection(emulator, { memoryId }) });
  },
});

describe('task records as memory records in the namespaces of their kind', () => {
  it('episodes are read hierarchically with namespacePath; preferences live under users/{login}', async () => {
    const connection = emulatorConnection(emulator, { memoryId: 'tasks-0000000119' });
    const backend = createAgentCoreTaskRecordBackend({ connection, ownsConnection: false });
    const at = '2026-05-01T00:00:00.000Z';
    const record = (kind: 'episode' | 'preference', id: string) => ({
      record: { kind, repo: 'vercel/next.js', id, revision: 1, updated_at: at, text: `${kind} ${id}`, data: {} },
      expectedRevision: null,
    });
    expect(
      await backend.apply([record('episode', 'task-1'), record('episode', 'task-2'), record('preference', 'alice.b')]),
    ).toEqual({ ok: true });
    expect(taskRecordNamespace('vercel/next.js', 'episode', 'task-1')).toBe('/vercel/next_2Ejs/episodes/task-1/');
    const episodes = await listRecords(connection, { namespacePath: '/vercel/next_2Ejs/episodes/' });
    expect(episodes).toHaveLength(2);
    // Exact matching on the parent namespace reads nothing: hierarchies need namespacePath.
    expect(await listRecords(connection, { namespace: '/vercel/next_2Ejs/episodes/' })).toEqual([]);
    const preferences = await listRecords(connection, { namespacePath: 'users/alice_2Eb/' });
    expect(preferences.map((item) => item.namespace)).toEqual(['users/alice_2Eb/vercel/next_2Ejs/']);
    expect(await backend.delete('vercel/next.js', 'episode', 'task-1')).toBe(true);
    expect(await listRecords(connection, { namespacePath: '/vercel/next_2Ejs/episodes/' })).toHaveLength(1);
    await backend.close();
    connection.close();
  });
});
