// Why: remote sync (library and CLI) must be tested against a real git server, not a mock of one.
// This runs git's own smart-HTTP backend (`git http-backend`, CGI) behind a tiny node:http server
// on 127.0.0.1 (random port), optionally behind Basic auth with a token, so pushes and fetches go
// through exactly the protocol GitHub and friends speak. Test-runner agnostic: no vitest here.
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { devNull } from 'node:os';
import { join } from 'node:path';

/**
 * Environment for the git processes started here: the caller's environment without system or
 * global git configuration, and never an interactive credential prompt.
 */
const isolatedGitEnv = (): NodeJS.ProcessEnv => ({
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: devNull,
  GIT_TERMINAL_PROMPT: '0',
});

let backendPath: string | undefined;

/**
 * Path of git's CGI smart-HTTP backend (`git-http-backend` in `git --exec-path`); asks git once
 * and remembers the answer.
 */
export function gitHttpBackendPath(): string {
  backendPath ??= join(
    execFileSync('git', ['--exec-path'], { encoding: 'utf8', env: isolatedGitEnv() }).trim(),
    'git-http-backend',
  );
  return backendPath;
}

/** A running git smart-HTTP server made by {@link startGitHttpServer}. */
export interface GitHttpServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:40123`. */
  readonly baseUrl: string;
  /** Directory holding the served bare repositories. */
  readonly root: string;
  /** URL of the bare repository `name` (a path below {@link GitHttpServer.root}, e.g. `memory.git`). */
  url(name: string): string;
  /** Number of HTTP requests received so far (refused ones included). */
  requests(): number;
  /** The `Authorization` header of every request received so far, in order (`undefined` when absent). */
  authorizations(): readonly (string | undefined)[];
  /** Stop listening, drop open connections, and resolve once the server is closed. */
  stop(): Promise<void>;
}

/** Options of {@link startGitHttpServer}. */
export interface GitHttpServerOptions {
  /** Directory of bare repositories to serve (see {@link createBareRepository}). */
  readonly root: string;
  /**
   * When set, every request needs Basic auth whose password is this token (any user name);
   * others get `401` with a `WWW-Authenticate` challenge.
   */
  readonly token?: string;
  /** Path of the `git-http-backend` executable (default {@link gitHttpBackendPath}). */
  readonly backend?: string;
}

/**
 * Create an empty bare repository `root/name` (default branch `main`) that accepts pushes over
 * HTTP (`http.receivepack true`); returns its path.
 */
export function createBareRepository(root: string, name: string): string {
  const path = join(root, name);
  const env = isolatedGitEnv();
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', path], { env, stdio: 'ignore' });
  execFileSync('git', ['config', 'http.receivepack', 'true'], { cwd: path, env, stdio: 'ignore' });
  return path;
}

/** The authenticated user name, `undefined` when no token is required, `false` when refused. */
function authorizedUser(request: IncomingMessage, token: string | undefined): string | undefined | false {
  if (token === undefined) return undefined;
  const match = /^Basic (.+)$/i.exec(request.headers.authorization ?? '');
  if (match?.[1] === undefined) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || decoded.slice(colon + 1) !== token) return false;
  return decoded.slice(0, colon) || 'token';
}

/** CGI/1.1 environment of one request. */
function cgiEnv(root: string, user: string | undefined, request: IncomingMessage): NodeJS.ProcessEnv {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const env: NodeJS.ProcessEnv = {
    ...isolatedGitEnv(),
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.replace(/^\?/, ''),
    REQUEST_METHOD: request.method ?? 'GET',
    CONTENT_TYPE: request.headers['content-type'] ?? '',
    REMOTE_ADDR: '127.0.0.1',
    GATEWAY_INTERFACE: 'CGI/1.1',
  };
  const { headers } = request;
  if (user !== undefined) env.REMOTE_USER = user;
  if (headers['content-length'] !== undefined) env.CONTENT_LENGTH = headers['content-length'];
  if (headers['content-encoding'] !== undefined) env.HTTP_CONTENT_ENCODING = headers['content-encoding'];
  if (headers['git-protocol'] !== undefined) env.GIT_PROTOCOL = String(headers['git-protocol']);
  return env;
}

/** Run the backend for one request, turning its CGI header block into the HTTP status and headers. */
function serveCgi(backend: string, env: NodeJS.ProcessEnv, request: IncomingMessage, response: ServerResponse): void {
  const child = spawn(backend, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
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
    const crlf = head.indexOf('\r\n\r\n');
    const end = crlf >= 0 ? crlf : head.indexOf('\n\n');
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
    const rest = head.subarray(end + (crlf >= 0 ? 4 : 2));
    if (rest.length > 0) response.write(rest);
  });
  child.stderr.resume();
  const finish = (): void => {
    if (!headersSent) response.writeHead(500);
    response.end();
  };
  child.on('close', finish);
  child.on('error', finish);
}

/**
 * Start a git smart-HTTP server on 127.0.0.1 (random port) serving the bare repositories in
 * `options.root` through `git http-backend`. Call {@link GitHttpServer.stop} when done.
 */
export async function startGitHttpServer(options: GitHttpServerOptions): Promise<GitHttpServer> {
  const backend = options.backend ?? gitHttpBackendPath();
  let count = 0;
  const authorizations: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    count += 1;
    authorizations.push(request.headers.authorization);
    const user = authorizedUser(request, options.token);
    if (user === false) {
      request.resume();
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="repomem-test"', 'Content-Type': 'text/plain' });
      response.end('authentication required\n');
      return;
    }
    serveCgi(backend, cgiEnv(options.root, user, request), request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    root: options.root,
    url: (name) => `${baseUrl}/${name}`,
    requests: () => count,
    authorizations: () => [...authorizations],
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
