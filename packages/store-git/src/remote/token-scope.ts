// Why: a token is a credential for one host. Sending `$GITHUB_TOKEN` to whatever remote a memory
// branch is pushed to leaks it to that host, and plain http leaks it to the network. This decides,
// for one token and the URLs a sync will reach, whether the token may be sent at all.
import { RepomemError } from '@repomem/core';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True for the hosts plain http may carry a token to: `localhost`, `127.0.0.1`, `::1`. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/**
 * The hosts (`host[:port]`, lower-case) a GitHub token from the environment belongs to: the host of
 * `GITHUB_SERVER_URL` when set (GitHub Enterprise, or the server an Actions run is on), else
 * `github.com`. Pass the result as `tokenHosts` with `token: env.GITHUB_TOKEN`.
 */
export function githubTokenHosts(env: Readonly<Record<string, string | undefined>>): string[] {
  const server = env.GITHUB_SERVER_URL;
  if (server !== undefined && server !== '') {
    try {
      return [new URL(server).host.toLowerCase()];
    } catch {
      return [];
    }
  }
  return ['github.com'];
}

/**
 * Whether `token` may be sent to every one of `urls`. Returns false when `tokenHosts` is given and
 * some URL's host is not in it (the token then is not sent: the requests go out without it).
 * Throws `INVALID_ARGUMENT` when the token would travel over plain `http://` to a host that is not
 * loopback. Never includes the token in a message.
 */
export function tokenAllowed(urls: readonly string[], tokenHosts: readonly string[] | undefined): boolean {
  const hosts = tokenHosts?.map((host) => host.toLowerCase());
  for (const raw of urls) {
    const url = new URL(raw);
    if (hosts !== undefined && !hosts.includes(url.host.toLowerCase())) return false;
  }
  for (const raw of urls) {
    const url = new URL(raw);
    if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `refusing to send a token over plain http to ${url.host}: use an https:// remote (plain http carries a token only to loopback)`,
        { details: { host: url.host } },
      );
    }
  }
  return true;
}
