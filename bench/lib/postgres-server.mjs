// Why: the PostgreSQL benchmark needs a server like the tests do, without touching one the
// machine runs: `initdb` into a temporary directory and `pg_ctl` on a free loopback port as the
// unprivileged `postgres` user when run as root, stopped and removed afterwards. Settings are
// PostgreSQL's defaults (fsync on), so figures are what a real server gives on this machine.
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function binDir() {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const version = readdirSync(root)
      .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a))[0];
    if (version !== undefined) return join(root, version, 'bin');
  }
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A running server `{ url, version, stop() }`, or `{ missing }` saying why there is none. */
export async function startBenchServer() {
  const bin = binDir();
  if (bin === undefined) return { missing: 'no PostgreSQL server binaries (install the postgresql package)' };
  const root = process.getuid?.() === 0;
  const prefix = root ? ['runuser', '-u', 'postgres', '--'] : [];
  const run = (program, args) => {
    const [command, ...rest] = [...prefix, join(bin, program), ...args];
    return execFileSync(command, rest, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const dir = mkdtempSync(join(tmpdir(), 'repomem-bench-pg-'));
  const own = (path) => {
    if (!root) return;
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(path, uid, gid);
  };
  own(dir);
  const password = 'repomem-bench';
  writeFileSync(join(dir, 'pw'), `${password}\n`);
  own(join(dir, 'pw'));
  const port = await freePort();
  const data = join(dir, 'data');
  run('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    `--pwfile=${join(dir, 'pw')}`,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c max_connections=200`;
  run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-o', options, 'start']);
  const version = run('postgres', ['--version']).trim();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    version,
    stop: async () => {
      try {
        run('pg_ctl', ['-D', data, '-w', '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
