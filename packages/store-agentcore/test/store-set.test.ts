// Why: one `--store agentcore:…` used to build three SDK clients (store, verified memories, task
// records). The scheme's openSet builds the three facets on one connection; these run them
// through core's registry against the emulator with the real SDK client, and check that closing
// the store alone leaves the backends working and that the set closes everything once.
import { readFileSync } from 'node:fs';
import { isRepomemError, StoreRegistry } from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeScheme } from '../src/index.js';
import { type AgentCoreEmulator, EMULATOR_CREDENTIALS } from '../src/testing/index.js';
import { freshRepo, startEmulator } from './support.js';

let emulator: AgentCoreEmulator;
const previous = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

beforeAll(async () => {
  emulator = await startEmulator();
  process.env.AWS_ACCESS_KEY_ID = EMULATOR_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = EMULATOR_CREDENTIALS.secretAccessKey;
});
afterAll(async () => {
  for (const [name, value] of [
    ['AWS_ACCESS_KEY_ID', previous.id],
    ['AWS_SECRET_ACCESS_KEY', previous.secret],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await emulator.close();
});

/** Established TCP connections to the emulator's port (each SDK client keeps its own socket alive). */
function socketsToEmulator(): number {
  const port = Number(new URL(emulator.endpoint).port).toString(16).toUpperCase().padStart(4, '0');
  let count = 0;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[2]?.endsWith(`:${port}`) && fields[3] === '01') count += 1;
    }
  }
  return count;
}

describe('the agentcore: store set', () => {
  it('serves the store and both native backends from one client; the set closes them once', async () => {
    const registry = new StoreRegistry({ builtins: false });
    registry.registerStoreScheme(storeScheme);
    const repo = freshRepo();
    const spec = `agentcore:${emulator.memoryId}?region=${emulator.region}&endpoint=${encodeURIComponent(emulator.endpoint)}`;
    const open = { cwd: '/', env: {}, repo };
    const set = await registry.openStoreSet(spec, open);
    const verified = await set.verified();
    const tasks = await set.tasks();
    expect([set.store.name, verified.name, tasks.name]).toEqual(['agentcore', 'agentcore', 'agentcore']);
    expect(await set.store.list()).toEqual([]);
    expect(await verified.recent({ repo })).toEqual([]);
    expect(await tasks.list({ repo, kind: 'episode' })).toEqual([]);
    if (process.platform === 'linux') expect(socketsToEmulator()).toBe(1);
    await set.store.close();
    expect(await tasks.list({ repo, kind: 'episode' })).toEqual([]);
    await set.close();
    await set.close();
    const refused = await tasks.list({ repo, kind: 'episode' }).catch((error: unknown) => error);
    expect(isRepomemError(refused, 'STORE_CLOSED')).toBe(true);

    // The same reads opened apart: a client (and a socket) each.
    const apart = [
      await registry.openStore(spec, open),
      await registry.openVerifiedBackend(spec, open),
      await registry.openTaskRecordBackend(spec, open),
    ] as const;
    try {
      await apart[0].list();
      await apart[1].recent({ repo });
      await apart[2].list({ repo, kind: 'episode' });
      if (process.platform === 'linux') expect(socketsToEmulator()).toBe(3);
    } finally {
      await Promise.all(apart.map((opened) => opened.close()));
    }
  });
});
