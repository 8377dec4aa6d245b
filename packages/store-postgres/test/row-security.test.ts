// Why: repository isolation must hold in the database, not only in repomem's queries. After the
// policies are applied, a restricted role connects with plain SQL (no repomem code) and cannot
// read, change or add another repository's rows; through repomem it works on its own repository
// and is refused on another one by name (PERMISSION_DENIED, never an empty memory, never retried
// as an outage), and doctor says the role has no access to it.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyMemoryFailure, diagnoseStore, writeEpisode } from '@repomem/core';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  applyRowLevelSecurity,
  openPostgresRecordBackend,
  openPostgresStore,
  openPostgresTaskRecordBackend,
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

  it('through repomem, the role works on its repository and is refused on another one, by name', async () => {
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
    // Not an empty memory: the role is told it has no access to that repository.
    for (const readOnly of [false, true]) {
      const error = await expectRepomemError(
        () => openPostgresStore({ ...fields, repo: 'acme/theirs', readOnly }),
        'PERMISSION_DENIED',
        `the role "${role}" has no access to repository "acme/theirs"`,
        'row-level security',
        `--grant acme/theirs`,
      );
      expect(error.message).not.toContain(password);
    }
    const records = await openPostgresRecordBackend(fields);
    const tasks = await openPostgresTaskRecordBackend(fields);
    try {
      expect(await records.recent({ repo: 'acme/mine' })).toEqual([]);
      await expectRepomemError(() => records.recent({ repo: 'acme/theirs' }), 'PERMISSION_DENIED', 'acme/theirs');
      await expectRepomemError(() => records.stats({ repo: 'acme/theirs' }), 'PERMISSION_DENIED', 'acme/theirs');
      expect(await tasks.list({ repo: 'acme/mine', kind: 'episode' })).toEqual([]);
      await expectRepomemError(
        () => tasks.list({ repo: 'acme/theirs', kind: 'episode' }),
        'PERMISSION_DENIED',
        'acme/theirs',
      );
      // A write the policy refuses is a permission error at once: one attempt, never an outage.
      const record = {
        kind: 'episode' as const,
        repo: 'acme/theirs',
        id: 'theirs-1',
        revision: 1,
        updated_at: new Date().toISOString(),
        text: 'x',
        data: {},
      };
      const refused = await expectRepomemError(
        () => tasks.apply([{ record, expectedRevision: null }]),
        'PERMISSION_DENIED',
        'row-level security',
      );
      expect(classifyMemoryFailure(refused)).toMatchObject({ category: 'configuration', severity: 'error' });
      const written = await writeEpisode({
        backend: tasks,
        repo: 'acme/theirs',
        episode: { task_id: 'theirs-2', status: 'completed' },
      });
      expect(written).toMatchObject({
        kind: 'failed',
        attempts: 1,
        failure: { category: 'configuration', code: 'PERMISSION_DENIED' },
      });
    } finally {
      await records.close();
      await tasks.close();
    }
  });

  it('doctor --repo says the role has no access to a repository outside its grant', async () => {
    if (server === undefined) throw new Error(skipReason);
    const spec = `postgres://${role}:${password}@${server.host}:${server.port}/${database}?schema=${schema}`;
    const access = async (repo: string) =>
      (await diagnoseStore(spec, { repo })).find((check) => check.check === 'repository access');
    expect(await access('acme/mine')).toMatchObject({ status: 'ok' });
    const denied = await access('acme/theirs');
    expect(denied).toMatchObject({ status: 'failed' });
    expect(denied?.detail).toContain(`the role ${role} has no access to repository acme/theirs`);
    expect(denied?.fix).toContain(`--grant acme/theirs`);
    const owner = `postgres://${server.user}:${server.password}@${server.host}:${server.port}/${database}?schema=${schema}`;
    const ownerChecks = await diagnoseStore(owner, { repo: 'acme/theirs' });
    expect(ownerChecks.find((check) => check.check === 'repository access')).toMatchObject({
      status: 'ok',
    });
  });

  it('the repomem binary: doctor, a read and an episode write name the missing grant (exit 2, one attempt)', async () => {
    if (server === undefined) throw new Error(skipReason);
    const bin = fileURLToPath(new URL('../../cli/bin/repomem.js', import.meta.url));
    const spec = `postgres://${role}:${password}@${server.host}:${server.port}/${database}?schema=${schema}`;
    const cwd = mkdtempSync(join(tmpdir(), 'repomem-rls-cli-'));
    const repomem = (...args: string[]) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [bin, ...args],
          { cwd, env: { PATH: process.env.PATH ?? '' } },
          (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
        );
      });
    try {
      const doctor = await repomem('doctor', '--store', spec, '--repo', 'acme/theirs');
      expect(doctor.code).not.toBe(0);
      expect(`${doctor.stdout}${doctor.stderr}`).toContain(`has no access to repository acme/theirs`);
      expect(`${doctor.stdout}${doctor.stderr}`).not.toContain('All checks passed');
      const ok = await repomem('doctor', '--store', spec, '--repo', 'acme/mine');
      expect(`${ok.stdout}${ok.stderr}`).not.toContain('has no access');
      const search = await repomem('search', '--store', spec, '--repo', 'acme/theirs', 'secret');
      expect(search.code).toBe(2);
      expect(search.stderr).toContain(`the role "${role}" has no access to repository "acme/theirs"`);
      const episode = await repomem(
        'episode',
        'write',
        '--store',
        spec,
        '--repo',
        'acme/theirs',
        '--task-id',
        'b-1',
        '--status',
        'completed',
        '--json',
      );
      expect(episode.code).toBe(2);
      const report = `${episode.stdout}${episode.stderr}`;
      expect(report).toContain('PERMISSION_DENIED');
      expect(JSON.parse(episode.stdout.trim() || episode.stderr.trim())).toMatchObject({
        outcome: 'failed',
        attempts: 1,
        failure: { category: 'configuration', code: 'PERMISSION_DENIED' },
      });
      expect(report).not.toContain('outage');
      for (const output of [doctor, ok, search, episode])
        expect(`${output.stdout}${output.stderr}`).not.toContain(password);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
