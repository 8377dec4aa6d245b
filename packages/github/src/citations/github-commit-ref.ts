// Why: a citation verified at a branch must record the commit it was read at, or the next
// verification has no commit to map lines from. `GET /repos/{owner}/{repo}/commits/{ref}` with
// `Accept: application/vnd.github.sha` answers just that commit id; this module asks it once per
// reader and ref (revalidated with the answer's ETag after a short while, since branches move),
// validates it, and says "cannot tell" rather than guess when GitHub does not know the ref.
import { RepomemError } from '@repomem/core';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { parseGitHubJson } from './github-compare-schema.js';
import type { GitHubGet } from './github-get.js';

/** How long a resolved ref is trusted before it is revalidated (with its ETag), in milliseconds. */
export const GITHUB_REF_RESOLUTION_TTL_MS = 30_000;

const CommitShaSchema = z
  .string()
  .transform((text) => text.trim().toLowerCase())
  .pipe(z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, 'expected a commit id'));

interface Resolution {
  readonly commit: string | undefined;
  readonly etag: string | undefined;
  readonly at: number;
}

/** Resolves `ref` of `owner/name` to the commit id it names now; `undefined` = GitHub does not know it. */
export type GitHubCommitResolver = (owner: string, name: string, ref: string) => Promise<string | undefined>;

/**
 * A {@link GitHubCommitResolver} over `get`, caching each answer per `owner/name` and ref for
 * `ttlMs` (then one conditional request; a 304 keeps the cached commit). Concurrent questions
 * about the same ref share one request. A malformed answer throws `BACKEND_UNAVAILABLE`.
 */
export function createGitHubCommitResolver(
  get: GitHubGet,
  ttlMs: number = GITHUB_REF_RESOLUTION_TTL_MS,
  now: () => number = Date.now,
): GitHubCommitResolver {
  const cache = new LRUCache<string, Resolution>({ max: 256 });
  const pending = new Map<string, Promise<string | undefined>>();
  return (owner, name, ref) => {
    const key = `${owner}/${name}\0${ref}`;
    const cached = cache.get(key);
    if (cached !== undefined && now() - cached.at < ttlMs) return Promise.resolve(cached.commit);
    const inFlight = pending.get(key);
    if (inFlight !== undefined) return inFlight;
    const where = `the commit of ${ref} in ${owner}/${name}`;
    const request = (async (): Promise<string | undefined> => {
      const answer = await get(
        'GET /repos/{owner}/{repo}/commits/{ref}',
        {
          owner,
          repo: name,
          ref,
          headers: {
            accept: 'application/vnd.github.sha',
            ...(cached?.etag === undefined ? {} : { 'if-none-match': cached.etag }),
          },
        },
        where,
      );
      if (answer.kind === 'not_modified') {
        if (cached === undefined) {
          throw new RepomemError('BACKEND_UNAVAILABLE', `GitHub answered 304 for ${where} without a cached copy`);
        }
        cache.set(key, { ...cached, at: now() });
        return cached.commit;
      }
      if (answer.kind === 'not_found') {
        cache.delete(key);
        return undefined;
      }
      const parsed = parseGitHubJson(CommitShaSchema, answer.data);
      if (!parsed.ok) {
        throw new RepomemError(
          'BACKEND_UNAVAILABLE',
          `GitHub returned an unexpected answer for ${where}: ${parsed.problem}`,
        );
      }
      cache.set(key, { commit: parsed.value, etag: answer.etag, at: now() });
      return parsed.value;
    })();
    pending.set(key, request);
    const settle = () => pending.delete(key);
    request.then(settle, settle);
    return request;
  };
}
