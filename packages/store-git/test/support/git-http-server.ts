// Why: remote sync must be tested against a real git server, not a mock of one. This runs git's
// own smart-HTTP backend (`git http-backend`) as CGI behind a tiny node:http server on
// 127.0.0.1 (random port), optionally behind Basic auth with a token, so pushes and fetches go
// through exactly the protocol GitHub and friends speak.
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { freshDirectory, freshRepository, git, gitEnv, removeDirectory } from '../support.js';

/** Path of git's CGI smart-HTTP backend. */
export const GIT_HTTP_BACKEND = '/usr/lib/git-core/git-http-backend';

/** A running git smart-HTTP server. */
export interface GitHttpServer {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Directory holding the served bare repositories. */
  readonly root: string;
  /** URL of the bare repository `name` under {@link GitHttpServer.root}. */
  repoUrl(name: string): string;
  /** Requests served so far. */
  readonly requests: () => number;
  /** Stop listening and wait for open requests to finish. */
  stop(): Promise<void>;
}

/** Options of {@link startGitHttpServer}. */
export interface GitHttpServerOptions {
  /** Directory of bare repositories to serve. */
  readonly root: string;
  /** When set, every request needs Basic auth whose password is this token. */
  readonly token?: string;
}

/** Create a bare repository `name` under `root` that accepts pushes over HTTP; returns its path. */
export function createBareRepository(root: string, name: string): string {
  const path = join(root, name);
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', path], { env: gitEnv });
  execFileSync('git', ['config', 'http.receivepack', 'true'], { cwd: path, env: gitEnv });
  return path;
}

function authorized(request: IncomingMessage, token: string | undefined): string | undefined | false {
  if (token === undefined) return undefined;
  const header = request.headers.authorization ?? '';
  const match = /^Basic (.+)$/i.exec(header);
  if (match?.[1] === undefined) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || decoded.slice(colon + 1) !== token) return false;
  return decoded.slice(0, colon) || 'token';
}

function serveCgi(root: string, user: string | undefined, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const env: NodeJS.ProcessEnv = {
    ...gitEnv,
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.replace(/^\?/, ''),
    REQUEST_METHOD: request.method ?? 'GET',
    CONTENT_TYPE: request.headers['content-type'] ?? '',
    REMOTE_ADDR: '127.0.0.1',
    GATEWAY_INTERFACE: 'CGI/1.1',
  };
  if (user !== undefined) env.REMOTE_USER = user;
  if (request.headers['content-length'] !== undefined) env.CONTENT_LENGTH = request.headers['content-length'];
  if (request.headers['content-encoding'] !== undefined)
    env.HTTP_CONTENT_ENCODING = request.headers['content-encoding'];
  if (request.headers['git-protocol'] !== undefined) env.GIT_PROTOCOL = String(request.headers['git-protocol']);
  const child = spawn(GIT_HTTP_BACKEND, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  request.pipe(child.stdin);
  child.stdin.on('error', () => undefined);
  let head = Buffer.alloc(0);
  let headersSent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (headersSent) {
      response.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    let end = head.indexOf('\r\n\r\n');
    let separator = 4;
    if (end < 0) {
      end = head.indexOf('\n\n');
      separator = 2;
    }
    if (end < 0) return;
    let status = 200;
    for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
      const colon = line.indexOf(':');
      if (colon < 0) continue;
      const name = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
      else response.setHeader(name, value);
    }
    response.writeHead(status);
    headersSent = true;
    const rest = head.subarray(end + separator);
    if (rest.length > 0) response.write(rest);
  });
  child.stderr.resume();
  child.on('close', () => {
    if (!headersSent) response.writeHead(500);
    response.end();
  });
  child.on('error', () => {
    if (!headersSent) response.writeHead(500);
    response.end();
  });
}

/** Start a git smart-HTTP server on 127.0.0.1 (random port) serving the bare repositories in `root`. */
export async function startGitHttpServer(options: GitHttpServerOptions): Promise<GitHttpServer> {
  let count = 0;
  const server = createServer((request, response) => {
    count += 1;
    const user = authorized(request, options.token);
    if (user === false) {
      request.resume();
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="repomem-test"', 'Content-Type': 'text/plain' });
      response.end('authentication required\n');
      return;
    }
    serveCgi(options.root, user, request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    root: options.root,
    repoUrl: (name) => `${url}/${name}`,
    requests: () => count,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A served bare repository and a way to make local clones of it. */
export interface RemoteFixture {
  readonly server: GitHttpServer;
  /** Path of the bare repository on disk (for `git --git-dir` checks). */
  readonly bare: string;
  /** Its HTTP URL. */
  readonly url: string;
  /** A new local repository (`git init`, on `main`) with `origin` pointing at {@link RemoteFixture.url}. */
  clone(): Promise<string>;
  /** Stop the server and delete every directory made. */
  dispose(): Promise<void>;
}

/** Start a server with one empty bare repository `memory.git`. */
export async function startRemoteFixture(options: { token?: string } = {}): Promise<RemoteFixture> {
  const root = await freshDirectory('repomem-remote-');
  const bare = createBareRepository(root, 'memory.git');
  const server = await startGitHttpServer({ root, ...options });
  const url = server.repoUrl('memory.git');
  const made: string[] = [root];
  return {
    server,
    bare,
    url,
    clone: async () => {
      const dir = await freshRepository();
      made.push(dir);
      git(dir, ['remote', 'add', 'origin', url]);
      return dir;
    },
    dispose: async () => {
      await server.stop();
      await Promise.all(made.map((dir) => removeDirectory(dir)));
    },
  };
}
