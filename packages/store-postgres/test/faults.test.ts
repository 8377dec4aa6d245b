// Why: connections to a shared server die (failovers, restarts, a DBA's pg_terminate_backend).
// On a private server of its own (a restart must not disturb the other test files), 300 mixed
// operations run while random connections are terminated and the server is restarted in the
// middle: every acknowledged write must be present, none applied twice, and every failure must
// reach its caller as a RepomemError naming the server.
import { isRepomemError } from '@repomem/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openPostgresRecordBackend,
  openPostgresStore,
  type PostgresRecordBackend,
  type PostgresStore,
} from '../src/index.js';
import { startTestServer, type TestServer } from './server/pg-server.js';
import { noServer, skipReason } from './support.js';

const utf8 = new TextEncoder();
const text = new TextDecoder();
const repo = 'acme/rocket';
const LANES = 6;
const OPERATIONS = 300;

function memory(n: number) {
  const at = new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString();
  return {
    id: `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
    repo,
    subject: `fault memory ${n}`,
    fact: `Written by operation ${n}.`,
    scope: null,
    citations: [{ path: 'src/a.ts', line_start: 1, line_end: 1 }],
    reason: null,
    created_by: null,
    created_at: at,
    refreshed_at: at,
    expires_at: new Date(Date.UTC(2027, 0, 1)).toISOString(),
    status: 'active' as const,
    superseded_by: null,
    supersedes: null,
    invalid_reason: null,
    verification_count: 0,
    revision: 1,
  };
}

describe.skipIf(noServer)(`postgres under faults${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('300 mixed operations while connections are terminated and the server restarts: acknowledged writes present once, failures reported', async () => {
    const fields = {
      host: server.host,
      port: server.port,
      user: server.user,
      password: server.password,
      database: 'postgres',
      maxConnections: 4,
      retry: { retries: 10, minTimeoutMs: 25, maxTimeoutMs: 1000 },
    };
    const store: PostgresStore = await openPostgresStore({ ...fields, repo });
    const records: PostgresRecordBackend = await openPostgresRecordBackend(fields);
    const acknowledged = { lines: [] as string[], state: [] as string[], memories: [] as number[] };
    const failures: unknown[] = [];
    let done = 0;
    let stopKilling = false;

    let killed = 0;
    const killer = (async () => {
      let admin: pg.Client | undefined;
      let restarted = false;
      while (!stopKilling) {
        try {
          if (!restarted && done >= OPERATIONS / 2) {
            restarted = true;
            await admin?.end().catch(() => undefined);
            admin = undefined;
            await server.restart();
            continue;
          }
          if (admin === undefined) {
            admin = new pg.Client({ ...fields, application_name: 'killer' });
            admin.on('error', () => undefined);
            await admin.connect();
          }
          const result = await admin.query(
            "SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE datname = 'postgres' AND pid <> pg_backend_pid() AND application_name <> 'killer' AND backend_type = 'client backend' ORDER BY random() LIMIT 1",
          );
          if ((result.rows[0] as { killed?: boolean } | undefined)?.killed === true) killed += 1;
        } catch {
          await admin?.end().catch(() => undefined);
          admin = undefined;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await admin?.end().catch(() => undefined);
      return restarted;
    })();

    const operation = async (n: number): Promise<void> => {
      try {
        switch (n % 3) {
          case 0: {
            // A bullet add: read, append, compare-and-swap, retried on conflict.
            const line = `- operation ${n}`;
            for (;;) {
              const current = await store.get('MEMORY.md');
              const before = current === undefined ? '' : text.decode(current.content);
              const result = await store.write([
                {
                  kind: 'put',
                  path: 'MEMORY.md',
                  content: utf8.encode(`${before}${line}\n`),
                  expectedVersion: current?.version ?? null,
                },
              ]);
              if (result.status === 'committed') break;
            }
            acknowledged.lines.push(line);
            break;
          }
          case 1: {
            const result = await store.state.put(`faults/${n}`, { n });
            expect(result.status).toBe('committed');
            acknowledged.state.push(`faults/${n}`);
            break;
          }
          default: {
            const result = await records.apply(
              [{ record: memory(n), expectedRevision: null }],
              [{ type: 'created', memory_id: memory(n).id, repo, at: memory(n).created_at }],
            );
            expect(result).toEqual({ ok: true });
            acknowledged.memories.push(n);
          }
        }
      } catch (error) {
        failures.push(error);
      } finally {
        done += 1;
      }
    };

    await Promise.all(
      Array.from({ length: LANES }, async (_, lane) => {
        for (let n = lane; n < OPERATIONS; n += LANES) await operation(n);
      }),
    );
    stopKilling = true;
    expect(await killer, 'the server was restarted during the run').toBe(true);
    expect(killed, 'connections were terminated during the run').toBeGreaterThan(0);
    process.stderr.write(`faults: ${killed} connections terminated, ${failures.length} operations failed\n`);

    // Every failure reached its caller as a RepomemError naming the server, without the password.
    for (const failure of failures) {
      expect(isRepomemError(failure), String(failure)).toBe(true);
      expect((failure as Error).message).toContain(`${server.host}:${server.port}`);
      expect((failure as Error).message).not.toContain(server.password);
    }
    expect(acknowledged.lines.length + acknowledged.state.length + acknowledged.memories.length + failures.length).toBe(
      OPERATIONS,
    );

    const check = await openPostgresStore({ ...fields, repo });
    const checkRecords = await openPostgresRecordBackend(fields);
    try {
      const lines = text
        .decode((await check.get('MEMORY.md'))?.content ?? new Uint8Array())
        .split('\n')
        .filter((line) => line.startsWith('- '));
      expect(new Set(lines).size, 'no bullet is applied twice').toBe(lines.length);
      for (const line of acknowledged.lines) expect(lines).toContain(line);
      const keys = (await check.state.list({ prefix: 'faults/' })).map((entry) => entry.key);
      for (const key of acknowledged.state) expect(keys).toContain(key);
      const stored = await checkRecords.recent({ repo });
      expect(new Set(stored.map((record) => record.id)).size).toBe(stored.length);
      for (const n of acknowledged.memories) expect(stored.map((record) => record.id)).toContain(memory(n).id);
      const events = await checkRecords.events({ repo });
      expect(events.length, 'each created memory has exactly one event').toBe(stored.length);
    } finally {
      await check.close();
      await checkRecords.close();
      await store.close();
      await records.close();
    }
  }, 120_000);
});
