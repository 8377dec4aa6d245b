// Why: `repomem postgres policies` prints the row-level security statements a database owner
// reviews before applying them; the printed form needs no server and must name every table,
// the Supabase JWT-claim form must differ only in its condition, and bad input must fail clearly.
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { jsonOf, cli as run } from './in-process.js';

const cli = (args: readonly string[]) => run(args, { cwd: tmpdir() });

describe('repomem postgres policies', () => {
  it('prints the grants form for a role, with the repositories to grant', async () => {
    const result = await cli(['postgres', 'policies', '--role', 'agent_runner', '--grant', 'acme/rocket']);
    expect(result.code).toBe(0);
    for (const table of ['documents', 'state', 'agent_memory', 'agent_memory_telemetry', 'task_records']) {
      expect(result.stdout).toContain(`ALTER TABLE "repomem"."${table}" ENABLE ROW LEVEL SECURITY;`);
    }
    expect(result.stdout).toContain(
      `INSERT INTO "repomem".repo_grants (role_name, repo) VALUES ('agent_runner', 'acme/rocket')`,
    );
  });

  it('prints the Supabase form (repositories from the JWT claim) as JSON, in another schema', async () => {
    const result = await cli(['postgres', 'policies', '--supabase', '--schema', 'memory', '--json']);
    expect(result.code).toBe(0);
    const report = jsonOf(result) as { ok: boolean; applied: boolean; statements: string[] };
    expect(report).toMatchObject({ ok: true, applied: false });
    expect(report.statements.join('\n')).toContain("auth.jwt() -> 'app_metadata' -> 'repomem_repos'");
    expect(report.statements.join('\n')).toContain('TO "authenticated"');
    expect(report.statements.join('\n')).toContain('"memory"."documents"');
  });

  it('refuses a missing role, a bad role name and a non-postgres store', async () => {
    expect((await cli(['postgres', 'policies'])).code).toBe(1);
    expect((await cli(['postgres', 'policies', '--role', 'x"; DROP TABLE y; --'])).code).toBe(1);
    const wrong = await cli(['postgres', 'policies', '--role', 'r', '--store', 'sqlite:x.db']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('postgres://');
    expect((await cli(['postgres', 'nonsense'])).code).toBe(1);
  });
});
