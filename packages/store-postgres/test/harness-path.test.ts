// Why: the test run must not depend on the caller's PATH. A minimal root PATH (`/usr/bin:/bin`,
// no /usr/sbin) once made every test of this package fail to start, because `runuser` was run by
// bare name. The harness now finds every program by absolute path: a second throw-away server
// (and PgBouncer, when installed) starts and answers with exactly that PATH.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { findPgBouncer, startTestServer } from './server/pg-server.js';
import { noServer, skipReason } from './support.js';

async function answers(port: number, password: string): Promise<number> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await client.connect();
  try {
    return (await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one ?? 0;
  } finally {
    await client.end();
  }
}

describe.skipIf(noServer)(`the PostgreSQL test harness${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  it('starts the server and PgBouncer with PATH=/usr/bin:/bin', async () => {
    const saved = process.env.PATH;
    process.env.PATH = '/usr/bin:/bin';
    let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
    try {
      server = await startTestServer({ bouncer: true });
    } finally {
      process.env.PATH = saved;
    }
    try {
      expect(await answers(server.port, server.password)).toBe(1);
      if (findPgBouncer() !== undefined) {
        expect(server.bouncerPort).toEqual(expect.any(Number));
        expect(await answers(server.bouncerPort as number, server.password)).toBe(1);
      }
    } finally {
      process.env.PATH = '/usr/bin:/bin';
      try {
        await server.stop();
      } finally {
        process.env.PATH = saved;
      }
    }
  });
});
