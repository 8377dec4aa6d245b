// Why: callers name a remote the way they name it to git (`origin`, or a URL) and give a token;
// this turns that into the URLs to fetch from and push to and the Authorization header, and
// fails clearly for a remote that is not configured or a transport repomem does not speak.
import { RepomemError } from '@repomem/core';
import * as git from 'isomorphic-git';
import type { GitFileSystem } from '../repository/file-system.js';
import { tokenAllowed } from './token-scope.js';

/** Default remote name. */
export const DEFAULT_REMOTE = 'origin';

/** How to reach a remote and authenticate to it. */
export interface RemoteConnection {
  /** What the caller called it: the remote name, or the URL with any credentials removed. */
  readonly label: string;
  /** The configured remote name, or `undefined` for a bare URL (no remote-tracking refs then). */
  readonly name: string | undefined;
  /** URL fetched from (credentials removed). */
  readonly fetchUrl: string;
  /** URL pushed to (`remote.<name>.pushurl`, else the fetch URL). */
  readonly pushUrl: string;
  /** Headers sent with every request (Authorization when a token or URL credentials were given). */
  readonly headers: Readonly<Record<string, string>>;
}

/** How to name the remote: options shared by every remote operation. */
export interface RemoteOptions {
  /** Remote name (default `origin`) or an `http(s)://` URL. */
  readonly remote?: string;
  /** URL to use instead of the remote's configured URL (wins over `remote`). */
  readonly url?: string;
  /**
   * Access token, sent as Basic auth with username `x-access-token` (GitHub's convention). Never
   * sent over plain `http://` except to loopback (`INVALID_ARGUMENT` instead).
   */
  readonly token?: string;
  /**
   * Hosts (`host[:port]`) the token belongs to. When given, the token is sent only when every URL
   * of the sync (fetch and push) is on one of them; otherwise the requests go out without it. Pass
   * `githubTokenHosts(process.env)` with a token taken from `$GITHUB_TOKEN`.
   */
  readonly tokenHosts?: readonly string[];
}

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;
const SCP_LIKE = /^[^/\\]+@[^/\\]+:/;
const REMOTE_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

function parseHttpUrl(raw: string, label: string): { url: string; user?: string; password?: string } {
  if (SCP_LIKE.test(raw) || raw.startsWith('ssh://') || raw.startsWith('git://') || raw.startsWith('file://')) {
    throw new RepomemError(
      'UNSUPPORTED',
      `remote ${label} uses ${JSON.stringify(raw)}: only http:// and https:// remotes are supported (isomorphic-git speaks smart HTTP)`,
      { details: { remote: label } },
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch (error) {
    throw new RepomemError('INVALID_ARGUMENT', `remote ${label}: ${JSON.stringify(raw)} is not a URL`, {
      cause: error,
      details: { remote: label },
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new RepomemError(
      'UNSUPPORTED',
      `remote ${label} uses ${parsed.protocol.slice(0, -1)}: only http:// and https:// remotes are supported`,
      { details: { remote: label } },
    );
  }
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  const url = parsed.href.replace(/\/+$/, '');
  return { url, ...(user ? { user } : {}), ...(password ? { password } : {}) };
}

function basic(user: string, password: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}` };
}

/**
 * Resolve `options` against the repository's configuration (`remote.<name>.url`, `pushurl`).
 * Throws `NOT_FOUND` naming a remote that is not configured, `UNSUPPORTED` for non-HTTP
 * transports, `INVALID_ARGUMENT` for a malformed name, URL or token, or a token that would travel
 * over plain http to a host that is not loopback. A token is left out when `tokenHosts` does not
 * hold the remote's host.
 */
export async function resolveRemote(
  fs: GitFileSystem,
  commondir: string,
  options: RemoteOptions,
): Promise<RemoteConnection> {
  const { token } = options;
  if (token !== undefined && (typeof token !== 'string' || token.length === 0 || /[\r\n\0]/.test(token))) {
    throw new RepomemError('INVALID_ARGUMENT', 'token must be a non-empty single-line string');
  }
  const remote = options.remote ?? DEFAULT_REMOTE;
  if (typeof remote !== 'string' || remote.length === 0) {
    throw new RepomemError('INVALID_ARGUMENT', 'remote must be a remote name such as "origin" or an http(s) URL');
  }
  let name: string | undefined;
  let fetchRaw: string;
  let pushRaw: string;
  if (options.url !== undefined) {
    if (typeof options.url !== 'string' || !URL_LIKE.test(options.url)) {
      throw new RepomemError('INVALID_ARGUMENT', `url must be an http(s) URL, got ${JSON.stringify(options.url)}`);
    }
    fetchRaw = options.url;
    pushRaw = options.url;
  } else if (URL_LIKE.test(remote) || SCP_LIKE.test(remote)) {
    fetchRaw = remote;
    pushRaw = remote;
  } else {
    if (!REMOTE_NAME.test(remote) || remote.includes('..')) {
      throw new RepomemError('INVALID_ARGUMENT', `invalid remote name ${JSON.stringify(remote)}`, {
        details: { remote },
      });
    }
    const gitFs = fs as unknown as git.PromiseFsClient;
    const url = (await git.getConfig({ fs: gitFs, gitdir: commondir, path: `remote.${remote}.url` })) as unknown;
    if (typeof url !== 'string' || url.length === 0) {
      throw new RepomemError(
        'NOT_FOUND',
        `remote ${JSON.stringify(remote)} is not configured in ${commondir} (no remote.${remote}.url); ` +
          `add it with \`git remote add ${remote} <url>\` or pass url`,
        { details: { remote } },
      );
    }
    const pushUrl = (await git.getConfig({
      fs: gitFs,
      gitdir: commondir,
      path: `remote.${remote}.pushurl`,
    })) as unknown;
    name = remote;
    fetchRaw = url;
    pushRaw = typeof pushUrl === 'string' && pushUrl.length > 0 ? pushUrl : url;
  }
  const label = name ?? 'url';
  const fetchTarget = parseHttpUrl(fetchRaw, label);
  const pushTarget = pushRaw === fetchRaw ? fetchTarget : parseHttpUrl(pushRaw, label);
  let headers: Record<string, string> = {};
  if (token !== undefined && tokenAllowed([fetchTarget.url, pushTarget.url], options.tokenHosts)) {
    headers = basic('x-access-token', token);
  } else if (fetchTarget.user !== undefined) headers = basic(fetchTarget.user, fetchTarget.password ?? '');
  return {
    label: name ?? fetchTarget.url,
    name,
    fetchUrl: fetchTarget.url,
    pushUrl: pushTarget.url,
    headers,
  };
}
