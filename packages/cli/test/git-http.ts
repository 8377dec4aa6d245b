// Why: `repomem push` must be tested against a real git server: git's own smart-HTTP backend
// (`git http-backend`, CGI) behind a small node:http server on 127.0.0.1, optionally requiring a
// token as Basic auth password, serving bare repositories from a temp directory.
import { execFileSync, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const BACKEND = join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-http-backend');

/** A running server; `url(name)` is the URL of bare repository `name`. */
export interface GitHttpServer {
  url(name: string): string;
  stop(): Promise<void>;
}

/** Create a bare repository `root/name` that accepts pushes over HTTP. */
export function createBareRepository(root: string, name: string): string {
  const path = join(root, name);
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', path]);
  execFileSync('git', ['config', 'http.receivepack', 'true'], { cwd: path });
  return path;
}

function tokenOk(request: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return true;
  const match = /^Basic (.+)$/i.exec(request.headers.authorization ?? '');
  if (match?.[1] === undefined) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1) === token;
}

function serveCgi(root: string, request: IncomingMessage, response: ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.replace(/^\?/, ''),
    REQUEST_METHOD: request.method ?? 'GET',
    CONTENT_TYPE: request.headers['content-type'] ?? '',
    REMOTE_ADDR: '127.0.0.1',
    REMOTE_USER: 'test',
    GATEWAY_INTERFACE: 'CGI/1.1',
    ...(request.headers['content-length'] === undefined ? {} : { CONTENT_LENGTH: request.headers['content-length'] }),
    ...(request.headers['content-encoding'] === undefined
      ? {}
      : { HTTP_CONTENT_ENCODING: request.headers['content-encoding'] }),
  };
  const child = spawn(BACKEND, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  request.pipe(child.stdin);
  child.stdin.on('error', () => undefined);
  let head = Buffer.alloc(0);
  let sent = false;
  child.stdout.on('data', (chunk: Buffer) => {
    if (sent) {
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
    sent = true;
    const rest = head.subarray(end + (crlf >= 0 ? 4 : 2));
    if (rest.length > 0) response.write(rest);
  });
  child.stderr.resume();
  const finish = (): void => {
    if (!sent) response.writeHead(500);
    response.end();
  };
  child.on('close', finish);
  child.on('error', finish);
}

/** Serve the bare repositories in `root` on 127.0.0.1 (random port); with `token`, require it. */
export async function startGitHttpServer(root: string, token?: string): Promise<GitHttpServer> {
  const server = createServer((request, response) => {
    if (!tokenOk(request, token)) {
      request.resume();
      response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="repomem-test"' });
      response.end('authentication required\n');
      return;
    }
    serveCgi(root, request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
