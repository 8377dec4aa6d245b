// Why: a bullet add reads a document and writes it back expecting the version it read; the
// driver answers that write's pre-read from what it just read (`preconditions`), saving a round
// trip. The hint must never decide: a document changed by another writer in between is still a
// conflict, found by the write's own transaction. Statements are counted on an injected pool.

import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresPoolLike } from '../src/index.js';
import { freshDatabase, freshSchema, noServer, skipReason, superuserFields } from './support.js';

const utf8 = new TextEncoder();
const text = new TextDecoder();

describe.skipIf(noServer)(`postgres write preconditions${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let database = '';
  beforeAll(async () => {
    database = await freshDatabase('preconditions');
  });

  it('a read then a write expecting its version: no second read, and a stale hint is still a conflict', async () => {
    const fields = { ...superuserFields(database), schema: freshSchema(), repo: 'acme/rocket' };
    const raw = new pg.Pool({ ...superuserFields(database), max: 2 } as pg.PoolConfig);
    const sent: string[] = [];
    const pool: PostgresPoolLike = {
      connect: async () => {
        const client = await raw.connect();
        return {
          query: (config) => {
            sent.push(config.text);
            return client.query(config);
          },
          release: (error) => client.release(error),
        };
      },
      end: async () => undefined,
    };
    const mine = await openPostgresStore({ ...fields, pool });
    const theirs = await openPostgresStore(fields);
    try {
      await mine.write([{ kind: 'put', path: 'MEMORY.md', content: utf8.encode('- one\n'), expectedVersion: null }]);
      const read = await mine.get('MEMORY.md');
      sent.length = 0;
      const second = utf8.encode('- one\n- two\n');
      const written = await mine.write([
        { kind: 'put', path: 'MEMORY.md', content: second, expectedVersion: read?.version ?? null },
      ]);
      expect(written.status).toBe('committed');
      // Only the write's transaction: no SELECT of the document before it.
      expect(sent.filter((statement) => /^SET LOCAL statement_timeout/.test(statement))).toEqual([]);

      const version = written.status === 'committed' ? written.versions['MEMORY.md'] : undefined;
      await theirs.write([{ kind: 'put', path: 'MEMORY.md', content: utf8.encode('- theirs\n') }]);
      const stale = await mine.write([
        { kind: 'put', path: 'MEMORY.md', content: utf8.encode('- mine\n'), expectedVersion: version ?? null },
      ]);
      expect(stale.status).toBe('conflict');
      expect(text.decode((await theirs.get('MEMORY.md'))?.content)).toBe('- theirs\n');
    } finally {
      await Promise.all([mine.close(), theirs.close()]);
      await raw.end();
    }
  });
});
