// Why: one real PostgreSQL server (with PgBouncer in transaction mode in front) is shared by all
// of this package's test files, each in its own database; starting one per file would cost more
// than the tests. When no server can be installed the tests are skipped with a notice saying so,
// never passed as if they had run; under CI (CI=true) a missing server or PgBouncer fails the run
// instead.
import type { TestProject } from 'vitest/node';
import { findPostgresBin, startTestServer, type TestServer } from './server/pg-server.js';
import type { PostgresAvailability } from './support.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const found = findPostgresBin();
  if ('missing' in found) {
    const reason = `PostgreSQL tests skipped: ${found.missing} (the CI script installs it)`;
    if (process.env.CI === 'true') throw new Error(`${reason}; CI=true requires a real server`);
    process.stderr.write(`\n[store-postgres] ${reason}\n`);
    project.provide('postgres', { available: false, reason } satisfies PostgresAvailability);
    return async () => undefined;
  }
  let server: TestServer;
  try {
    server = await startTestServer({ bouncer: true });
  } catch (error) {
    const reason = `PostgreSQL tests skipped: the test server did not start (${(error as Error).message})`;
    if (process.env.CI === 'true') throw new Error(reason);
    process.stderr.write(`\n[store-postgres] ${reason}\n`);
    project.provide('postgres', { available: false, reason } satisfies PostgresAvailability);
    return async () => undefined;
  }
  if (server.bouncerPort === undefined) {
    const reason = 'PgBouncer is not installed (looked for /usr/sbin/pgbouncer and the other system directories)';
    if (process.env.CI === 'true') {
      await server.stop();
      throw new Error(`${reason}; CI=true requires it for the PgBouncer conformance tests (the CI script installs it)`);
    }
    process.stderr.write(`\n[store-postgres] the PgBouncer tests will be skipped: ${reason}\n`);
  }
  project.provide('postgres', {
    available: true,
    host: server.host,
    port: server.port,
    bouncerPort: server.bouncerPort,
    user: server.user,
    password: server.password,
    version: server.version,
  } satisfies PostgresAvailability);
  return () => server.stop();
}
