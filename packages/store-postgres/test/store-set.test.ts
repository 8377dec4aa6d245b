// Why: one `--store postgres://…` used to open three pools (store, verified memories, task
// records), three server connections for one `repomem context`. The registry's openStoreSet now
// builds all three facets on one pool, which the CLI caps at one connection; this counts the server's connections (pg_stat_activity,
// by application_name) during a hydrate plus a search that touch every facet, on the real server.
import { randomBytes } from 'node:crypto';
import {
  hydrate,
  isRepomemError,
  openStore,
  openStoreSet,
  openTaskRecordBackend,
  openVerifiedBackend,
  openVerifiedMemory,
  RepomemError,
  searchStore,
} from '@repomem/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, freshSchema, noServer, server, skipReason, withSuperuser } from './support.js';

const REPO = 'acme/app';

function spec(database: string, schema: string, application: string): string {
  if (server === undefined) throw new Error(skipReason);
  const password = encodeURIComponent(server.password);
  return `postgres://${server.user}:${password}@${server.host}:${server.port}/${database}?schema=${schema}&application_name=${application}`;
}

async function connections(database: string, application: string): Promise<number> {
  return withSuperuser(database, async (client) => {
    const result = await client.query<{ n: string }>(
      'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
      [database, application],
    );
    return Number(result.rows[0]?.n);
  });
}

describe.skipIf(noServer)(`postgres store set${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let database = '';
  beforeAll(async () => {
    database = await freshDatabase('store_set');
  });

  async function touchEveryFacet(facets: {
    store: Parameters<typeof searchStore>[0];
    verified: Parameters<typeof openVerifiedMemory>[0]['backend'];
    tasks: Parameters<typeof hydrate>[0]['backend'];
  }): Promise<void> {
    await facets.store.write([{ kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('- use pnpm\n') }]);
    // No memory cites code here, so the reader is never asked.
    const citations = { name: 'none', read: () => Promise.reject(new RepomemError('NOT_FOUND', 'no code here')) };
    const verified = openVerifiedMemory({ backend: facets.verified, citations });
    const result = await hydrate({
      backend: facets.tasks,
      repo: REPO,
      task: { id: 'task-1', description: 'add a pnpm script' },
      verified,
      recordReceipt: true,
      mode: 'strict',
    });
    expect(result).toBeDefined();
    expect(await facets.tasks.get(REPO, 'receipt', 'task-1')).toBeDefined();
    await searchStore(facets.store, 'pnpm');
  }

  it('a context and a search on a one-connection set hold one server connection (several when opened apart)', async () => {
    const schema = freshSchema();
    const apart = `repomem_apart_${randomBytes(3).toString('hex')}`;
    const store = await openStore(spec(database, schema, apart), { repo: REPO });
    const verified = await openVerifiedBackend(spec(database, schema, apart), { repo: REPO });
    const tasks = await openTaskRecordBackend(spec(database, schema, apart), { repo: REPO });
    try {
      await touchEveryFacet({ store, verified, tasks });
      // Three pools, each growing under hydrate's concurrent reads (7 on this workload).
      expect(await connections(database, apart)).toBeGreaterThan(3);
    } finally {
      await Promise.all([store.close(), verified.close(), tasks.close()]);
    }

    const together = `repomem_set_${randomBytes(3).toString('hex')}`;
    // As the CLI opens it: one set per command, at most one connection unless the spec says pool_max.
    const set = await openStoreSet(spec(database, schema, together), { repo: REPO, maxConnections: 1 });
    try {
      await touchEveryFacet({ store: set.store, verified: await set.verified(), tasks: await set.tasks() });
      expect(await connections(database, together)).toBe(1);
    } finally {
      await set.close();
    }
  });

  it('closing the store alone leaves the backends working; closing the set closes them all, once', async () => {
    const set = await openStoreSet(spec(database, freshSchema(), 'repomem_close'), { repo: REPO });
    const tasks = await set.tasks();
    const verified = await set.verified();
    await set.store.close();
    expect(await tasks.list({ repo: REPO, kind: 'episode' })).toEqual([]);
    expect(await verified.recent({ repo: REPO })).toEqual([]);
    await set.close();
    await set.close();
    const refused = await tasks.list({ repo: REPO, kind: 'episode' }).catch((error: unknown) => error);
    expect(isRepomemError(refused, 'STORE_CLOSED')).toBe(true);
  });
});
