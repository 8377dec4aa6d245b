// Why: a GitHub token is a credential for one API host. The reader takes its endpoint from the
// caller or `GITHUB_API_URL` (GitHub Actions, Enterprise Server) and its token from the caller or
// `GITHUB_TOKEN`, and this module decides, before any request, which token (if any) may go to
// that endpoint: an environment token only to the host the environment names, and no token ever
// over plain http except to this machine.
import { RepomemError } from '@repomem/core';

/** The public GitHub REST API root, used when neither the caller nor `GITHUB_API_URL` names one. */
export const DEFAULT_GITHUB_API_URL = 'https://api.github.com';

/** Environment variables as `process.env` holds them. */
export type GitHubEnvironment = Readonly<Record<string, string | undefined>>;

/** What {@link resolveGitHubEndpoint} is given. Empty strings count as not given. */
export interface GitHubEndpointInput {
  /** API root chosen by the caller; wins over `GITHUB_API_URL`. */
  readonly baseUrl?: string;
  /** Token chosen by the caller; sent to whichever API root is used. */
  readonly token?: string;
  /** Environment read for `GITHUB_API_URL` and `GITHUB_TOKEN`. */
  readonly env?: GitHubEnvironment;
}

/** The API root to call and the token to send there. */
export interface GitHubEndpoint {
  /** API root without a trailing slash (`https://api.github.com`, `https://ghe.example/api/v3`). */
  readonly baseUrl: string;
  /** Token to send, or `undefined` for anonymous requests. */
  readonly token: string | undefined;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function given(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function parseApiUrl(text: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RepomemError('INVALID_ARGUMENT', `${source} is not a URL: ${JSON.stringify(text)}`, {
      details: { [source]: text },
    });
  }
  const problem =
    url.protocol !== 'https:' && url.protocol !== 'http:'
      ? `must be an https:// (or loopback http://) URL`
      : url.username !== '' || url.password !== ''
        ? 'must not hold credentials (pass the token separately)'
        : url.search !== '' || url.hash !== ''
          ? 'must not have a query or a fragment'
          : undefined;
  if (problem !== undefined) {
    // The URL may hold a password: show only its origin.
    const shown = url.username !== '' || url.password !== '' ? `${url.protocol}//***@${url.host}` : text;
    throw new RepomemError('INVALID_ARGUMENT', `${source} ${problem}: ${JSON.stringify(shown)}`, {
      details: { [source]: shown },
    });
  }
  return url;
}

/** The origin of `text`, or `undefined` when it is not a URL (then no token belongs to it). */
function originOf(text: string): string | undefined {
  try {
    return new URL(text).origin;
  } catch {
    return undefined;
  }
}

function withoutTrailingSlash(url: URL): string {
  return url.href.replace(/\/+$/, '');
}

/** True for the hosts plain http may carry a token to: `127.0.0.1`, `localhost`, `::1`. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/**
 * Choose the API root and the token for GitHub requests.
 *
 * - API root: `baseUrl`, else `env.GITHUB_API_URL`, else {@link DEFAULT_GITHUB_API_URL}.
 * - Token: `token`, else `env.GITHUB_TOKEN`, but an environment token only when the API root has
 *   the origin of the one the environment names (`GITHUB_API_URL`, else api.github.com): a caller
 *   pointing the reader at another host does not receive the environment's credential, and the
 *   requests go out anonymous.
 * - A token over plain `http://` is refused unless the host is `127.0.0.1`, `localhost` or `::1`.
 *
 * Throws `RepomemError` `INVALID_ARGUMENT` for an API root that is not an http(s) URL, holds
 * credentials, a query or a fragment, for a token holding whitespace, and for a token that would
 * travel over plain http. Messages never contain the token.
 */
export function resolveGitHubEndpoint(input: GitHubEndpointInput = {}): GitHubEndpoint {
  const env = input.env ?? {};
  const envApiUrl = given(env.GITHUB_API_URL);
  const callerUrl = given(input.baseUrl);
  const url =
    callerUrl !== undefined
      ? parseApiUrl(callerUrl, 'baseUrl')
      : parseApiUrl(envApiUrl ?? DEFAULT_GITHUB_API_URL, 'GITHUB_API_URL');

  let token = given(input.token);
  let tokenSource = 'the token';
  const envToken = given(env.GITHUB_TOKEN);
  if (token === undefined && envToken !== undefined && url.origin === originOf(envApiUrl ?? DEFAULT_GITHUB_API_URL)) {
    token = envToken;
    tokenSource = 'GITHUB_TOKEN';
  }

  if (token !== undefined && /[\s\0]/.test(token)) {
    // Never echo the token itself.
    throw new RepomemError('INVALID_ARGUMENT', `${tokenSource} contains whitespace or a NUL character`);
  }
  if (token !== undefined && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `refusing to send ${tokenSource} over plain http to ${url.host}: use an https:// API URL (plain http is allowed only for 127.0.0.1, localhost and ::1)`,
      { details: { baseUrl: withoutTrailingSlash(url), host: url.host } },
    );
  }
  return { baseUrl: withoutTrailingSlash(url), token };
}
