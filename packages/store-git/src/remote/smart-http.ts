// Why: the two requests of git's smart-HTTP protocol (v1) — ref discovery (`GET info/refs`) and
// the service call (`POST git-upload-pack` / `git-receive-pack`) — over an injectable HTTP
// client (isomorphic-git's interface, Node's client by default), with every failure turned into
// an error that says what went wrong with which remote: unreachable, authentication, not found.
import { RepomemError } from '@repomem/core';
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import * as nodeHttp from 'isomorphic-git/http/node';
import { isObjectId } from '../objects/object-id.js';
import { packetText, readPackets } from './pkt-line.js';
import type { RemoteConnection } from './remote-target.js';

/** The HTTP client used when none is injected (isomorphic-git's Node client). */
export const defaultHttpClient: HttpClient = nodeHttp as unknown as HttpClient;

/** A git service reachable over smart HTTP. */
export type GitService = 'git-upload-pack' | 'git-receive-pack';

/** What the server advertised: its refs and capabilities. */
export interface RefAdvertisement {
  /** Full ref name to object id (peeled `^{}` entries omitted). */
  readonly refs: ReadonlyMap<string, string>;
  /** Capabilities such as `side-band-64k`, `report-status`, `ofs-delta`. */
  readonly capabilities: ReadonlySet<string>;
}

const AGENT = 'repomem/0.1';

/** The `agent=` capability repomem announces. */
export const AGENT_CAPABILITY = `agent=${AGENT}`;

async function collectBody(body: GitHttpResponse['body']): Promise<Buffer> {
  if (body === undefined) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function networkCode(error: unknown): string {
  if (error !== null && typeof error === 'object') {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof code === 'string') return code;
    if (typeof message === 'string') return message;
  }
  return String(error);
}

async function send(
  http: HttpClient,
  remote: RemoteConnection,
  request: GitHttpRequest,
  action: string,
): Promise<{ response: GitHttpResponse; body: Buffer }> {
  let response: GitHttpResponse;
  let body: Buffer;
  try {
    response = await http.request(request);
    body = await collectBody(response.body);
  } catch (error) {
    throw new RepomemError(
      'BACKEND_UNAVAILABLE',
      `cannot reach remote ${remote.label} (${remote.fetchUrl}) to ${action}: ${networkCode(error)}`,
      { cause: error, details: { remote: remote.label, reason: 'unreachable' } },
    );
  }
  const status = response.statusCode;
  if (status === 401 || status === 403) {
    const hadCredentials = 'Authorization' in remote.headers;
    throw new RepomemError(
      'BACKEND_UNAVAILABLE',
      `authentication failed for remote ${remote.label} (${remote.fetchUrl}): HTTP ${status}; ` +
        (hadCredentials ? 'the token was rejected' : 'the server needs a token and none was given'),
      { details: { remote: remote.label, status, reason: 'authentication_failed' } },
    );
  }
  if (status === 404) {
    throw new RepomemError('NOT_FOUND', `no git repository at ${remote.fetchUrl} (remote ${remote.label}, HTTP 404)`, {
      details: { remote: remote.label, status, reason: 'repository_not_found' },
    });
  }
  if (status < 200 || status >= 300) {
    const excerpt = body.toString('utf8', 0, Math.min(body.length, 200)).trim();
    throw new RepomemError(
      'BACKEND_UNAVAILABLE',
      `remote ${remote.label} (${remote.fetchUrl}) failed to ${action}: HTTP ${status} ${response.statusMessage}` +
        (excerpt ? ` (${excerpt})` : ''),
      { details: { remote: remote.label, status, reason: 'server_error' } },
    );
  }
  return { response, body };
}

function header(response: GitHttpResponse, name: string): string {
  for (const [key, value] of Object.entries(response.headers ?? {})) {
    if (key.toLowerCase() === name) return String(value);
  }
  return '';
}

/** Parse a v1 ref advertisement (after the `# service=` preamble). */
export function parseAdvertisement(body: Uint8Array, label: string): RefAdvertisement {
  const { packets } = readPackets(body);
  const refs = new Map<string, string>();
  let capabilities = new Set<string>();
  let first = true;
  for (const packet of packets) {
    if (packet === null) continue;
    const text = packetText(packet);
    if (text.startsWith('# service=')) continue;
    let line = text;
    if (first) {
      const nul = line.indexOf('\0');
      if (nul >= 0) {
        capabilities = new Set(
          line
            .slice(nul + 1)
            .split(' ')
            .filter(Boolean),
        );
        line = line.slice(0, nul);
      }
      first = false;
    }
    const space = line.indexOf(' ');
    const oid = line.slice(0, space);
    const name = line.slice(space + 1);
    if (!isObjectId(oid)) {
      throw new RepomemError('BACKEND_UNAVAILABLE', `remote ${label} advertised a malformed ref line`, {
        details: { remote: label },
      });
    }
    if (name === 'capabilities^{}' || name.endsWith('^{}')) continue;
    refs.set(name, oid);
  }
  return { refs, capabilities };
}

/** Discover the refs and capabilities `service` advertises at the remote. */
export async function discoverRefs(
  http: HttpClient,
  remote: RemoteConnection,
  service: GitService,
): Promise<RefAdvertisement> {
  const base = service === 'git-receive-pack' ? remote.pushUrl : remote.fetchUrl;
  const action = service === 'git-receive-pack' ? 'list refs for push' : 'list refs';
  const { response, body } = await send(
    http,
    remote,
    {
      url: `${base}/info/refs?service=${service}`,
      method: 'GET',
      headers: { ...remote.headers, 'User-Agent': `git/${AGENT}`, Accept: `application/x-${service}-advertisement` },
    },
    action,
  );
  if (header(response, 'content-type') !== `application/x-${service}-advertisement`) {
    throw new RepomemError(
      'UNSUPPORTED',
      `remote ${remote.label} (${base}) is not a smart-HTTP git server (got content-type ${JSON.stringify(header(response, 'content-type'))}); ` +
        (service === 'git-receive-pack' ? 'is push over HTTP enabled there?' : 'dumb HTTP is not supported'),
      { details: { remote: remote.label } },
    );
  }
  return parseAdvertisement(body, remote.label);
}

/** POST a request to `service` and return the whole response body. */
export async function callService(
  http: HttpClient,
  remote: RemoteConnection,
  service: GitService,
  body: readonly Uint8Array[],
): Promise<Buffer> {
  const base = service === 'git-receive-pack' ? remote.pushUrl : remote.fetchUrl;
  const { response, body: received } = await send(
    http,
    remote,
    {
      url: `${base}/${service}`,
      method: 'POST',
      headers: {
        ...remote.headers,
        'User-Agent': `git/${AGENT}`,
        'Content-Type': `application/x-${service}-request`,
        Accept: `application/x-${service}-result`,
      },
      body: [...body] as unknown as AsyncIterableIterator<Uint8Array>,
    },
    service === 'git-receive-pack' ? 'push' : 'fetch',
  );
  const type = header(response, 'content-type');
  if (type !== '' && type !== `application/x-${service}-result`) {
    throw new RepomemError('BACKEND_UNAVAILABLE', `remote ${remote.label} answered ${service} with ${type}`, {
      details: { remote: remote.label },
    });
  }
  return received;
}
