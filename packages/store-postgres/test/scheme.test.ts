// Why: callers reach PostgreSQL through core's registry (`postgres://` and `postgresql://` specs,
// the CLI's --store and $REPOMEM_STORE), and `repomem doctor` explains what is wrong through the
// scheme's diagnose(). Both are checked against the real server, directly and through PgBouncer,
// and no diagnostic ever shows the password.
import { diagnoseStore, openStore, openTaskRecordBackend, openVerifiedBackend } from '@repomem/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, freshSchema, noServer, server, skipReason } from './support.js';

function spec(database: string, schema: string, options: { scheme?: string; port?: number; password?: string } = {}) {
  if (server === undefined) throw new Error(skipReason);
  const password = encodeURIComponent(options.password ?? server.password);
  return `${options.scheme ?? 'postgres'}://${server.user}:${password}@${server.host}:${options.port ?? server.port}/${database}?schema=${schema}`;
}

describe.skipIf(noServer)(`postgres through core's registry${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let database = '';
  beforeAll(async () => {
    database = await freshDatabase('scheme');
  });

  it('postgres:// and postgresql:// open the same store, records and task records', async () => {
    const schema = freshSchema();
    const store = await openStore(spec(database, schema), { repo: 'acme/app' });
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('- shared\n') }]);
    await store.close();
    const alias = await openStore(spec(database, schema, { scheme: 'postgresql' }), {
      repo: 'acme/app',
      readOnly: true,
    });
    expect((await alias.list()).map((entry) => entry.path)).toEqual(['MEMORY.md']);
    await alias.close();
    const records = await openVerifiedBackend(spec(database, schema), { repo: 'acme/app' });
    expect(records.name).toBe('postgres');
    await records.close();
    const tasks = await openTaskRecordBackend(spec(database, schema), { repo: 'acme/app' });
    expect(tasks.name).toBe('postgres');
    await tasks.close();
  });

  it('a read-only open of a missing schema is NOT_FOUND and creates nothing', async () => {
    await expect(openStore(spec(database, freshSchema()), { repo: 'acme/app', readOnly: true })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('doctor checks reachability, version, schema, privileges, row-level security, repository access and pooler mode', async () => {
    const schema = freshSchema();
    const before = await diagnoseStore(spec(database, schema), { repo: 'acme/app' });
    const byCheck = new Map(before.map((check) => [check.check, check]));
    expect([...byCheck.keys()]).toEqual([
      'reachable',
      'server version',
      'schema version',
      'privileges',
      'row-level security',
      'repository access',
      'pooler mode',
    ]);
    expect(byCheck.get('reachable')?.status).toBe('ok');
    expect(byCheck.get('server version')).toMatchObject({ status: 'ok' });
    expect(byCheck.get('schema version')).toMatchObject({ status: 'warning' });
    expect(byCheck.get('pooler mode')?.detail).toContain('same server connection');
    await (await openStore(spec(database, schema), { repo: 'acme/app' })).close();
    const after = new Map((await diagnoseStore(spec(database, schema), { repo: 'acme/app' })).map((c) => [c.check, c]));
    expect(after.get('schema version')?.status).toBe('ok');
    expect(after.get('privileges')?.status).toBe('ok');
    expect(after.get('row-level security')).toMatchObject({ status: 'warning' });
    for (const check of [...before, ...after]) expect(JSON.stringify(check)).not.toContain(server?.password);
  });

  it.skipIf(server?.bouncerPort === undefined)(
    'doctor through PgBouncer in transaction mode names the pooler',
    async () => {
      const checks = await diagnoseStore(spec(database, freshSchema(), { port: server?.bouncerPort }), {
        repo: 'acme/app',
      });
      const pooler = checks.find((check) => check.check === 'pooler mode');
      expect(pooler?.detail).toContain('transaction-mode pooler');
    },
  );

  it('doctor with a wrong password reports the failure without the password', async () => {
    const checks = await diagnoseStore(spec(database, freshSchema(), { password: 'wrong-doctor-pw' }), {
      repo: 'acme/app',
    });
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ check: 'reachable', status: 'failed' });
    expect(checks[0]?.detail).toContain('authentication');
    expect(JSON.stringify(checks)).not.toContain('wrong-doctor-pw');
  });
});
