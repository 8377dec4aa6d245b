// Why: the tests run against a real PostgreSQL server (and a real PgBouncer in transaction mode),
// started by the test run itself: `initdb` into a temporary directory and `pg_ctl` on a free
// loopback port, as an unprivileged user (the server refuses to run as root), stopped and removed
// at the end. Nothing here touches a server the machine already runs. Every program is run by
// absolute path where the distribution installs it (`/usr/sbin/runuser`,
// `/usr/lib/postgresql/<n>/bin/initdb`, `/usr/sbin/pgbouncer`), never looked up on the caller's
// PATH, which is often minimal (`/usr/bin:/bin` lacks /usr/sbin).
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The superuser password of every test server. */
export const TEST_PASSWORD = 'repomem-test-password';

/** What the tests need to reach a running test server. */
export interface TestServerInfo {
  readonly host: string;
  readonly port: number;
  /** PgBouncer (transaction mode) in front of the server, when available. */
  readonly bouncerPort: number | undefined;
  readonly user: string;
  readonly password: string;
  readonly version: string;
}

/** A server started by {@link startTestServer}. */
export interface TestServer extends TestServerInfo {
  /** Restart the server (`pg_ctl restart -m fast`): every connection is dropped. */
  restart(): Promise<void>;
  /** Stop the server and PgBouncer and remove the directory. */
  stop(): Promise<void>;
}

/** Where distributions install programs, searched in this order (never the caller's PATH). */
const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/** The absolute path of system program `name`, or `undefined` when it is not installed. */
export function findSystemTool(name: string): string | undefined {
  return SYSTEM_DIRS.map((dir) => join(dir, name)).find((path) => existsSync(path));
}

/** The directory holding `initdb` and `pg_ctl`, or why there is none. */
export function findPostgresBin(): { bin: string } | { missing: string } {
  // Debian and Ubuntu: /usr/lib/postgresql/<major>/bin; others put the server where pg_config says.
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return { bin: join(root, versions[0], 'bin') };
  }
  const pgConfig = findSystemTool('pg_config');
  if (pgConfig !== undefined) {
    try {
      const bin = execFileSync(pgConfig, ['--bindir'], { encoding: 'utf8' }).trim();
      if (existsSync(join(bin, 'initdb'))) return { bin };
    } catch {
      // pg_config without a server beside it.
    }
  }
  return { missing: 'no PostgreSQL server binaries (initdb, pg_ctl) were found: install the postgresql package' };
}

/** The PgBouncer binary, or `undefined` when it is not installed. */
export function findPgBouncer(): string | undefined {
  return findSystemTool('pgbouncer');
}

/** `name`'s absolute path, or an error saying which package provides it. */
function requireSystemTool(name: string, provider: string): string {
  const found = findSystemTool(name);
  if (found === undefined) {
    throw new Error(`${name} was not found in ${SYSTEM_DIRS.join(', ')}: install ${provider}`);
  }
  return found;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

interface Runner {
  readonly prefix: readonly string[];
  readonly uid: number | undefined;
  readonly gid: number | undefined;
}

/** Run server programs as the unprivileged `postgres` user when we are root. */
function runner(): Runner {
  if (process.getuid?.() !== 0) return { prefix: [], uid: undefined, gid: undefined };
  const id = requireSystemTool('id', 'coreutils');
  const uid = Number(execFileSync(id, ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync(id, ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  return { prefix: [requireSystemTool('runuser', 'util-linux'), '-u', 'postgres', '--'], uid, gid };
}

async function exec(as: Runner, program: string, args: readonly string[]): Promise<string> {
  const [command, ...rest] = [...as.prefix, program, ...args];
  const { stdout } = await run(command as string, rest, { encoding: 'utf8', timeout: 60_000 });
  return stdout;
}

async function own(as: Runner, path: string): Promise<void> {
  if (as.uid !== undefined && as.gid !== undefined) await chown(path, as.uid, as.gid);
}

/** Start a throw-away server (and PgBouncer in transaction mode when `bouncer`). */
export async function startTestServer(options: { readonly bouncer?: boolean } = {}): Promise<TestServer> {
  const found = findPostgresBin();
  if ('missing' in found) throw new Error(found.missing);
  const as = runner();
  const dir = await mkdtemp(join(tmpdir(), 'repomem-pg-'));
  await own(as, dir);
  await chmod(dir, 0o700);
  const data = join(dir, 'data');
  const pwfile = join(dir, 'pw');
  await writeFile(pwfile, `${TEST_PASSWORD}\n`);
  await own(as, pwfile);
  const port = await freePort();
  const bin = (name: string): string => join(found.bin, name);
  await exec(as, bin('initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    `--pwfile=${pwfile}`,
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const serverOptions = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
  ].join(' ');
  const log = join(dir, 'server.log');
  await exec(as, bin('pg_ctl'), ['-D', data, '-l', log, '-w', '-t', '60', '-o', serverOptions, 'start']);
  const version = (await exec(as, bin('postgres'), ['--version'])).trim();

  let bouncerPort: number | undefined;
  const pgbouncer = options.bouncer === true ? findPgBouncer() : undefined;
  const bouncerPid = join(dir, 'pgbouncer.pid');
  if (pgbouncer !== undefined) {
    bouncerPort = await freePort();
    const userlist = join(dir, 'userlist.txt');
    await writeFile(
      userlist,
      `"postgres" "${TEST_PASSWORD}"\n"repomem_runner" "runner-password"\n"repomem_other" "other-password"\n`,
    );
    const ini = join(dir, 'pgbouncer.ini');
    await writeFile(
      ini,
      [
        '[databases]',
        `* = host=127.0.0.1 port=${port}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${bouncerPort}`,
        `unix_socket_dir = ${dir}`,
        'auth_type = scram-sha-256',
        `auth_file = ${userlist}`,
        'pool_mode = transaction',
        'max_client_conn = 1000',
        'default_pool_size = 20',
        `logfile = ${join(dir, 'pgbouncer.log')}`,
        `pidfile = ${bouncerPid}`,
        'server_reset_query =',
        '',
      ].join('\n'),
    );
    await own(as, userlist);
    await own(as, ini);
    await exec(as, pgbouncer, ['-d', ini]);
    await waitForPort(bouncerPort);
  }

  const stopBouncer = async (): Promise<void> => {
    if (bouncerPort === undefined) return;
    try {
      const pid = Number((await readFile(bouncerPid, 'utf8')).trim());
      if (pid > 0) process.kill(pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  };
  return {
    host: '127.0.0.1',
    port,
    bouncerPort,
    user: 'postgres',
    password: TEST_PASSWORD,
    version,
    restart: async () => {
      await exec(as, bin('pg_ctl'), [
        '-D',
        data,
        '-l',
        log,
        '-w',
        '-t',
        '60',
        '-m',
        'fast',
        '-o',
        serverOptions,
        'restart',
      ]);
    },
    stop: async () => {
      await stopBouncer();
      try {
        await exec(as, bin('pg_ctl'), ['-D', data, '-w', '-t', '60', '-m', 'immediate', 'stop']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

async function waitForPort(port: number): Promise<void> {
  const { connect } = await import('node:net');
  for (let attempt = 0; attempt < 100; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port}`);
}
