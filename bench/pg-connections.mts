// Why: issue 21 asks for one PostgreSQL connection per command. This counts, for a few CLI
// commands against a throw-away server (the store-postgres tests' harness), the server sessions
// each command opened (pg_stat_database.sessions before and after, once its backends are gone)
// and the most it held at once (pg_stat_activity by application_name, polled while it runs).
// Usage: node bench/pg-connections.mts <repomem binary> [<repomem binary>...]
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from '../packages/store-postgres/node_modules/pg/lib/index.js';
import { startTestServer } from '../packages/store-postgres/test/server/pg-server.ts';

const binaries = process.argv.slice(2);
if (binaries.length === 0) throw new Error('usage: node bench/pg-connections.mts <repomem binary>...');
const server = await startTestServer();
const admin = new pg.Client({
  host: server.host,
  port: server.port,
  user: server.user,
  password: server.password,
  database: 'postgres',
});
await admin.connect();
const work = await mkdtemp(join(tmpdir(), 'repomem-pgconn-'));

async function sessions(database: string): Promise<number> {
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const result = await admin.query('SELECT sessions FROM pg_stat_database WHERE datname = $1', [database]);
  return Number(result.rows[0]?.sessions ?? 0);
}

async function held(database: string, application: string): Promise<number> {
  const result = await admin.query(
    'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
    [database, application],
  );
  return Number(result.rows[0]?.n);
}

async function measure(binary: string, database: string, label: string, args: string[]) {
  const application = `m_${Math.random().toString(36).slice(2, 10)}`;
  const spec = `postgres://${server.user}:${encodeURIComponent(server.password)}@${server.host}:${server.port}/${database}?application_name=${application}`;
  const before = await sessions(database);
  let peak = 0;
  let running = true;
  const child = spawn(process.execPath, [binary, ...args, '--store', spec, '--repo', 'acme/app'], { cwd: work });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  exited.then(() => {
    running = false;
  });
  while (running) {
    peak = Math.max(peak, await held(database, application));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const code = await exited;
  while ((await held(database, application)) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  let opened = 0;
  for (let tries = 0; tries < 100; tries += 1) {
    opened = (await sessions(database)) - before;
    if (opened > 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { label, code, opened, peak, stderr: code === 0 ? '' : stderr.slice(0, 300) };
}

const commands: Array<[string, string[]]> = [
  ['update add', ['update', 'add', '--file', 'MEMORY.md', '--section', 'Conventions', 'use pnpm, never npm']],
  ['search', ['search', 'pnpm']],
  ['episode write', ['episode', 'write', '--task-id', 't-1', '--status', 'completed']],
  ['context --record', ['context', '--task', 'add a pnpm script', '--task-id', 't-2', '--record']],
  [
    'context --record --verified',
    ['context', '--task', 'add a pnpm script', '--task-id', 't-3', '--record', '--verified', '--source', `dir:${work}`],
  ],
];
try {
  for (const [index, binary] of binaries.entries()) {
    const database = `pgconn_${index}`;
    await admin.query(`CREATE DATABASE ${database}`);
    console.log(`\n${binary}`);
    console.log('| command | exit | connections opened | most held at once |');
    for (const [label, args] of commands) {
      const row = await measure(binary, database, label, args);
      console.log(
        `| ${row.label} | ${row.code} | ${row.opened} | ${row.peak} |${row.stderr === '' ? '' : ` ${row.stderr.replace(/\n/g, ' ')}`}`,
      );
    }
  }
} finally {
  await admin.end();
  await server.stop();
}
