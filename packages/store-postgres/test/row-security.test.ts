// Why: repository isolation must hold in the database, not only in repomem's queries. After the
// policies are applied, a restricted role connects with plain SQL (no repomem code) and cannot
// read, change or add another repository's rows; through repomem it works on its own repository
// and is refused on another one with a clear error.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  applyRowLevelSecurity,
  openPostgresRecordBackend,
  openPostgresStore,
  rowLevelSecurityStatements,
} from '../src/index.js';
import {
  expectRepomemError,
  freshDatabase,
  freshSchema,
  noServer,
  server,
  skipReason,
  superuserFields,
  withSuperuser,
} from './support.js';

const utf8 = new TextEncoder();

describe('row-level security statements', () => {
  it('restrict each repository-scoped table to the granted repositories (grants and Supabase forms)', () => {
    const grants = rowLevelSecurityStatements({ role: 'agent_runner', grant: ["acme/o'brien"] }).join(';\n');
    expect(grants).toContain('ALTER TABLE "repomem"."documents" ENABLE ROW LEVEL SECURITY');
    expect(grants).toContain(
      'CREATE POLICY "repomem_repo_access_agent_runner" ON "repomem"."agent_memory" FOR ALL TO "agent_runner"',
    );
    expect(grants).toContain(`VALUES ('agent_runner', 'acme/o''brien')`);
    const supabase = rowLevelSecurityStatements({ role: 'authenticated', form: 'supabase', schema: 'memory' }).join(
      ';\n',
    );
    expect(supabase).toContain("auth.jwt() -> 'app_metadata' -> 'repomem_repos'");
    expect(supabase).not.toContain('repo_grants');
    expect(() => rowLevelSecurityStatements({ role: 'x"; DROP TABLE y; --' })).toThrow(/role/);
  });
});

describe.skipIf(noServer)(`row-level security on a real server${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let database = '';
  const schema = freshSchema();
  const role = `runner_${randomBytes(3).toString('hex')}`;
  const password = 'runner-secret-password';

  beforeAll(async () => {
    database = await freshDatabase('rls');
    for (const repo of ['acme/mine', 'acme/theirs']) {
      const store = await openPostgresStore({ ...superuserFields(database), schema, repo });
      await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8.encode(`- ${repo} secret\n`) }]);
      await store.state.put('cursor', { repo });
      await store.close();
    }
    await withSuperuser(database, async (client) => {
      await client.query(`CREATE ROLE "${role}" LOGIN PASSWORD '${password}'`);
      await client.query(`GRANT CONNECT ON DATABASE "${database}" TO "${role}"`);
    });
    await applyRowLevelSecurity({ ...superuserFields(database), schema }, { role, grant: ['acme/mine'] });
  });

  const asRole = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    if (server === undefined) throw new Error(skipReason);
    const client = new pg.Client({ host: server.host, port: server.port, user: role, password, database });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };

  it('hand-written SQL as the restricted role sees, changes and adds only its own repository', async () => {
    await asRole(async (client) => {
      const t = (name: string) => `"${schema}"."${name}"`;
      const documents = await client.query(`SELECT repo FROM ${t('documents')} ORDER BY repo`);
      expect(documents.rows).toEqual([{ repo: 'acme/mine' }]);
      expect((await client.query(`SELECT repo FROM ${t('state')}`)).rows).toEqual([{ repo: 'acme/mine' }]);
      expect((await client.query(`SELECT repo FROM ${t('repos')}`)).rows).toEqual([{ repo: 'acme/mine' }]);
      const updated = await client.query(`UPDATE ${t('documents')} SET content = 'x' WHERE repo = 'acme/theirs'`);
      expect(updated.rowCount).toBe(0);
      const deleted = await client.query(`DELETE FROM ${t('state')} WHERE repo <> 'acme/mine'`);
      expect(deleted.rowCount).toBe(0);
      await expect(
        client.query(
          `INSERT INTO ${t('documents')} (repo, path, version, size, content) VALUES ('acme/theirs', 'X.md', 'v', 1, 'x')`,
        ),
      ).rejects.toMatchObject({ code: '42501' });
      await expect(
        client.query(`UPDATE ${t('documents')} SET repo = 'acme/theirs' WHERE repo = 'acme/mine'`),
      ).rejects.toMatchObject({ code: '42501' });
      await expect(client.query(`INSERT INTO ${t('repo_grants')} VALUES ('${role}', '*')`)).rejects.toMatchObject({
        code: '42501',
      });
    });
    await withSuperuser(database, async (client) => {
      const rows = await client.query(
        `SELECT repo, convert_from(content, 'UTF8') AS text FROM "${schema}".documents ORDER BY repo`,
      );
      expect(rows.rows).toEqual([
        { repo: 'acme/mine', text: '- acme/mine secret\n' },
        { repo: 'acme/theirs', text: '- acme/theirs secret\n' },
      ]);
    });
  });

  it('through repomem, the role works on its repository and is refused on another one', async () => {
    if (server === undefined) throw new Error(skipReason);
    const fields = { host: server.host, port: server.port, user: role, password, database, schema };
    const mine = await openPostgresStore({ ...fields, repo: 'acme/mine' });
    try {
      expect(await mine.list()).toHaveLength(1);
      const result = await mine.write([{ kind: 'put', path: 'notes/a.md', content: utf8.encode('- mine\n') }]);
      expect(result.status).toBe('committed');
    } finally {
      await mine.close();
    }
    const theirs = await openPostgresStore({ ...fields, repo: 'acme/theirs' });
    try {
      expect(await theirs.list(), 'rows of a repository outside the grant are invisible').toEqual([]);
      const error = await expectRepomemError(
        () => theirs.write([{ kind: 'put', path: 'MEMORY.md', content: utf8.encode('- overwritten\n') }]),
        'BACKEND_UNAVAILABLE',
        'row-level security',
        `${server.host}:${server.port}`,
        role,
      );
      expect(error.message).not.toContain(password);
    } finally {
      await theirs.close();
    }
    const records = await openPostgresRecordBackend(fields);
    try {
      expect(await records.recent({ repo: 'acme/theirs' })).toEqual([]);
    } finally {
      await records.close();
    }
  });
});
