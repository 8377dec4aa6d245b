// Why: memories about a repository that is not checked out locally must still be checked before
// use, so this reader verifies citations through the GitHub contents API. It fetches one file at a
// revision with @octokit/core, validates the answer, caches immutable (commit-pinned) reads and
// revalidates the others with ETags, and turns every way GitHub can fail into either a
// `CitationSource` (missing, binary, too large) or a `BACKEND_UNAVAILABLE` error, never a guess.
import { Octokit } from '@octokit/core';
import {
  type CitationLocation,
  type CitationReader,
  type CitationSource,
  isBinaryContent,
  normalizeDocumentPath,
  RepomemError,
  repoSlugProblem,
} from '@repomem/core';
import { LRUCache } from 'lru-cache';
import pRetry, { AbortError } from 'p-retry';
import { createGitHubCommitResolver } from './github-commit-ref.js';
import { type GitHubContentsEntry, parseGitHubContents } from './github-contents-schema.js';
import { type GitHubEnvironment, resolveGitHubEndpoint } from './github-endpoint.js';
import { createGitHubGet } from './github-get.js';
import { createGitHubLineMapper } from './github-line-mapper.js';
import { classifyGitHubFailure, type GitHubRequestFailure } from './github-request-failure.js';

/** Default largest file the GitHub reader decodes (1 MiB). */
export const DEFAULT_GITHUB_READER_MAX_BYTES = 1024 * 1024;
/** Default number of files kept in the GitHub reader's cache. */
export const DEFAULT_GITHUB_READER_CACHE_SIZE = 256;
/** Default number of retries after a 5xx, network error or short rate limit. */
export const DEFAULT_GITHUB_READER_RETRIES = 2;

/** Options of {@link createGitHubCitationReader}. */
export interface GitHubCitationReaderOptions {
  /**
   * A ready client. Its auth, base URL and plugins are used as is (`token`, `baseUrl` and `env` are
   * then ignored), so which host its credential reaches is the caller's choice.
   */
  readonly octokit?: Octokit;
  /**
   * Token for a client created here (a PAT, an installation token, Actions' `github.token`);
   * default `env.GITHUB_TOKEN` (see {@link resolveGitHubEndpoint} for when that one is sent).
   */
  readonly token?: string;
  /**
   * API root for a client created here; default `env.GITHUB_API_URL` (set by GitHub Actions, on
   * Enterprise Server `https://host/api/v3`), else `https://api.github.com`.
   */
  readonly baseUrl?: string;
  /** Environment read for `GITHUB_TOKEN` and `GITHUB_API_URL` (default `process.env`). */
  readonly env?: GitHubEnvironment;
  /** Files larger than this many bytes are `too_large` (default 1 MiB). */
  readonly maxBytes?: number;
  /** Files kept in memory (default 256); commit-pinned reads are served from here without a request. */
  readonly cacheSize?: number;
  /** Retries after a 5xx, a network error or a short rate limit (default 2). */
  readonly retries?: number;
  /** First delay between retries in milliseconds, doubled each time (default 200). */
  readonly retryDelayMs?: number;
  /** Longest rate-limit wait (`retry-after`, reset time) honoured before giving up, in ms (default 10,000). */
  readonly maxRateLimitWaitMs?: number;
}

const FULL_COMMIT_SHA = /^[0-9a-f]{40}$/;
/** Upper bound on cached bytes, whatever `cacheSize` says. */
const MAX_CACHED_BYTES = 64 * 1024 * 1024;

interface RevalidatedEntry {
  readonly etag: string;
  readonly source: CitationSource;
}

function positiveInteger(value: number | undefined, fallback: number, name: string, min: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min) {
    throw new RepomemError('INVALID_ARGUMENT', `createGitHubCitationReader: ${name} must be an integer >= ${min}`, {
      details: { [name]: value },
    });
  }
  return value;
}

/** `text`, or `binary` when the bytes hold a NUL or are not valid UTF-8. */
function decodeFile(bytes: Uint8Array, blobSha: string, revision: string): CitationSource {
  if (isBinaryContent(bytes)) return { kind: 'binary', revision };
  return { kind: 'text', text: new TextDecoder('utf-8').decode(bytes), blobSha, revision };
}

function sourceSize(source: CitationSource): number {
  return source.kind === 'text' ? source.text.length * 2 + 128 : 128;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function createClient(options: GitHubCitationReaderOptions): Octokit {
  const endpoint = resolveGitHubEndpoint({
    ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
    ...(options.token === undefined ? {} : { token: options.token }),
    env: options.env ?? process.env,
  });
  return new Octokit({
    baseUrl: endpoint.baseUrl,
    ...(endpoint.token === undefined ? {} : { auth: endpoint.token }),
  });
}

/** Thrown inside an attempt to ask p-retry for another one (the cause says why). */
class RetryableFailure extends Error {
  readonly failure: GitHubRequestFailure & { kind: 'transient' | 'rate_limited' };
  constructor(failure: GitHubRequestFailure & { kind: 'transient' | 'rate_limited' }) {
    super(failure.message);
    this.name = 'RetryableFailure';
    this.failure = failure;
  }
}

/**
 * A {@link CitationReader} over the GitHub REST contents API
 * (`GET /repos/{owner}/{repo}/contents/{path}?ref=`). A 404 or a directory is `missing`, a file
 * over `maxBytes` (or one GitHub will not inline) is `too_large`, NUL bytes or invalid UTF-8 are
 * `binary`. Authentication failures, exhausted retries and long rate limits throw
 * `RepomemError('BACKEND_UNAVAILABLE')`; an unknown ref throws `NOT_FOUND`; a bad slug throws
 * `INVALID_ARGUMENT` and a bad path `INVALID_PATH`. `revision` is the ref asked for, or `HEAD`.
 *
 * `mapLines` follows cited lines between two revisions through the compare API
 * (`GET /repos/{owner}/{repo}/compare/{from}...{to}`, `to` absent = the default branch): renamed
 * files, deleted files and the patch's hunks, one request per pair of revisions (see
 * `github-line-mapper.ts`); what the comparison cannot vouch for (no patch, a truncated
 * file list, a base that is not an ancestor of the head) is `unknown`, and verification then
 * falls back to the snippet search.
 *
 * `resolveRevision` names the commit a branch or tag stands for now
 * (`GET /repos/{owner}/{repo}/commits/{ref}` with `Accept: application/vnd.github.sha`; no ref:
 * the default branch, `GET /repos/{owner}/{repo}` once), cached per reader and ref for 30 s and
 * then revalidated with its ETag. Verification uses it to read and map at that commit and to
 * record it as the citation's `verified_commit`; `read` itself reads at the ref as given.
 *
 * Branch scope: `ancestry` asks the compare API whether each commit is an ancestor of the head
 * (`ahead` or `identical`: contained; `behind`, `diverged` or unknown to GitHub: not), one request
 * per distinct commit (at most 200 per question); `branches` names the repository's default
 * branch (`GET /repos/{owner}/{repo}`, once).
 *
 * The client is built once, here: an API URL that is not http(s), or a token that would travel
 * over plain http to a host other than this machine, throws `INVALID_ARGUMENT` before any request
 * (see {@link resolveGitHubEndpoint}).
 *
 * @example
 * ```ts
 * const reader = createGitHubCitationReader({ token: process.env.GITHUB_TOKEN });
 * const source = await reader.read({ repo: 'octocat/Hello-World', path: 'README' });
 * if (source.kind === 'text') console.log(source.blobSha, source.text.length);
 * ```
 */
export function createGitHubCitationReader(options: GitHubCitationReaderOptions = {}): CitationReader {
  const maxBytes = positiveInteger(options.maxBytes, DEFAULT_GITHUB_READER_MAX_BYTES, 'maxBytes', 1);
  const cacheSize = positiveInteger(options.cacheSize, DEFAULT_GITHUB_READER_CACHE_SIZE, 'cacheSize', 1);
  const retries = positiveInteger(options.retries, DEFAULT_GITHUB_READER_RETRIES, 'retries', 0);
  const retryDelayMs = positiveInteger(options.retryDelayMs, 200, 'retryDelayMs', 0);
  const maxRateLimitWaitMs = positiveInteger(options.maxRateLimitWaitMs, 10_000, 'maxRateLimitWaitMs', 0);
  const octokit = options.octokit ?? createClient(options);
  // Immutable reads (a full commit sha) never change; the others are revalidated with their ETag.
  const pinned = new LRUCache<string, CitationSource>({
    max: cacheSize,
    maxSize: MAX_CACHED_BYTES,
    sizeCalculation: sourceSize,
  });
  const revalidated = new LRUCache<string, RevalidatedEntry>({
    max: cacheSize,
    maxSize: MAX_CACHED_BYTES,
    sizeCalculation: (entry) => sourceSize(entry.source),
  });

  const toSource = (entry: GitHubContentsEntry, revision: string, where: string): CitationSource => {
    if (entry.type !== 'file') return { kind: 'missing', revision };
    if (entry.size > maxBytes) return { kind: 'too_large', revision, bytes: entry.size };
    if (entry.encoding === 'none' || (entry.content === undefined && entry.size > 0)) {
      return { kind: 'too_large', revision, bytes: entry.size };
    }
    if (entry.encoding !== undefined && entry.encoding !== 'base64') {
      throw new RepomemError(
        'BACKEND_UNAVAILABLE',
        `GitHub returned ${where} in an unknown encoding "${entry.encoding}"`,
      );
    }
    const bytes = Buffer.from(entry.content ?? '', 'base64');
    if (bytes.byteLength > maxBytes) return { kind: 'too_large', revision, bytes: bytes.byteLength };
    return decodeFile(bytes, entry.sha, revision);
  };

  const lineMapper = createGitHubLineMapper(octokit, { retries, retryDelayMs });
  const resolveCommit = createGitHubCommitResolver(createGitHubGet(octokit, retries, retryDelayMs));

  return {
    name: 'github',
    mapLines: (request) => lineMapper.mapLines(request),
    async resolveRevision(request) {
      const slugProblem =
        typeof request.repo === 'string' ? repoSlugProblem(request.repo) : 'repo must be a string "owner/repo"';
      if (slugProblem !== undefined) {
        throw new RepomemError('INVALID_ARGUMENT', `GitHub citation reader: invalid repository slug: ${slugProblem}`, {
          details: { repo: request.repo },
        });
      }
      const { ref } = request;
      if (ref !== undefined && FULL_COMMIT_SHA.test(ref)) return ref;
      if (ref !== undefined && (typeof ref !== 'string' || ref.length === 0 || /[\s\0]/.test(ref))) return undefined;
      const [owner = '', name = ''] = request.repo.split('/');
      const named = ref ?? (await lineMapper.branches(request.repo)).defaultBranch;
      return named === undefined ? undefined : resolveCommit(owner, name, named);
    },
    ancestry: (request) => lineMapper.ancestry(request),
    branches: (repo) => lineMapper.branches(repo),
    async read(location: CitationLocation): Promise<CitationSource> {
      const { repo, ref } = location;
      const slugProblem = typeof repo === 'string' ? repoSlugProblem(repo) : 'repo must be a string "owner/repo"';
      if (slugProblem !== undefined) {
        throw new RepomemError('INVALID_ARGUMENT', `GitHub citation reader: invalid repository slug: ${slugProblem}`, {
          details: { repo },
        });
      }
      if (ref !== undefined && (typeof ref !== 'string' || ref.length === 0 || /[\s\0]/.test(ref))) {
        throw new RepomemError('INVALID_ARGUMENT', `GitHub citation reader: invalid ref ${JSON.stringify(ref)}`, {
          details: { ref },
        });
      }
      const path = normalizeDocumentPath(location.path);
      const revision = ref ?? 'HEAD';
      const key = `${repo}\0${revision}\0${path}`;
      const immutable = ref !== undefined && FULL_COMMIT_SHA.test(ref);
      if (immutable) {
        const hit = pinned.get(key);
        if (hit !== undefined) return hit;
      }
      const [owner = '', name = ''] = repo.split('/');
      const encodedPath = path.split('/').map(encodeURIComponent).join('/');
      const where = `${repo}:${path}${ref === undefined ? '' : `@${ref}`}`;
      const previous = immutable ? undefined : revalidated.get(key);

      const attempt = async (): Promise<CitationSource> => {
        try {
          const response = await octokit.request(`GET /repos/{owner}/{repo}/contents/${encodedPath}`, {
            owner,
            repo: name,
            ...(ref === undefined ? {} : { ref }),
            ...(previous === undefined ? {} : { headers: { 'if-none-match': previous.etag } }),
          });
          const parsed = parseGitHubContents(response.data);
          if (!parsed.ok) {
            throw new RepomemError(
              'BACKEND_UNAVAILABLE',
              `GitHub returned an unexpected contents response for ${where}: ${parsed.problem}`,
            );
          }
          const source: CitationSource =
            parsed.value.kind === 'directory'
              ? { kind: 'missing', revision }
              : toSource(parsed.value.entry, revision, where);
          const etag = response.headers.etag;
          if (immutable) pinned.set(key, source);
          else if (typeof etag === 'string' && etag.length > 0) revalidated.set(key, { etag, source });
          else revalidated.delete(key);
          return source;
        } catch (error) {
          if (error instanceof RepomemError) throw new AbortError(error);
          const failure = classifyGitHubFailure(error);
          if (failure === undefined) throw new AbortError(error as Error);
          switch (failure.kind) {
            case 'not_modified':
              if (previous !== undefined) return previous.source;
              throw new AbortError(
                new RepomemError(
                  'BACKEND_UNAVAILABLE',
                  `GitHub answered 304 Not Modified for ${where} without a cached copy`,
                ),
              );
            case 'not_found': {
              const missing: CitationSource = { kind: 'missing', revision };
              if (immutable) pinned.set(key, missing);
              else revalidated.delete(key);
              return missing;
            }
            case 'too_large':
              // GitHub refuses files over 100 MB outright; the exact size is not in the answer.
              return { kind: 'too_large', revision, bytes: 100 * 1024 * 1024 };
            case 'unknown_ref':
              throw new AbortError(
                new RepomemError(
                  'NOT_FOUND',
                  `GitHub has no commit for ref ${JSON.stringify(ref)} in ${repo}: ${failure.message}`,
                  {
                    details: { repo, ref },
                  },
                ),
              );
            case 'auth':
              throw new AbortError(
                new RepomemError(
                  'BACKEND_UNAVAILABLE',
                  `GitHub authentication failed (${failure.status}: ${failure.message}) reading ${where}; check the token and its access to ${repo}`,
                  { cause: error, details: { repo, status: failure.status } },
                ),
              );
            case 'rate_limited':
              if (failure.waitMs > maxRateLimitWaitMs) {
                throw new AbortError(
                  new RepomemError(
                    'BACKEND_UNAVAILABLE',
                    `GitHub rate limit exceeded reading ${where}; retry in ${Math.ceil(failure.waitMs / 1000)} s (${failure.message})`,
                    { cause: error, details: { repo, status: failure.status, waitMs: failure.waitMs } },
                  ),
                );
              }
              throw new RetryableFailure(failure);
            case 'transient':
              throw new RetryableFailure(failure);
            case 'other':
              throw new AbortError(
                new RepomemError(
                  'BACKEND_UNAVAILABLE',
                  `GitHub answered ${failure.status} reading ${where}: ${failure.message}`,
                  { cause: error, details: { repo, status: failure.status } },
                ),
              );
          }
        }
      };

      try {
        return await pRetry(attempt, {
          retries,
          minTimeout: retryDelayMs,
          factor: 2,
          onFailedAttempt: async ({ error }) => {
            if (error instanceof RetryableFailure && error.failure.kind === 'rate_limited') {
              await sleep(error.failure.waitMs);
            }
          },
        });
      } catch (error) {
        if (error instanceof RetryableFailure) {
          const { failure } = error;
          const what =
            failure.kind === 'rate_limited'
              ? `rate limited (${failure.message})`
              : failure.status === undefined || failure.status === 500
                ? `unreachable or failing (${failure.message})`
                : `failing (${failure.status}: ${failure.message})`;
          throw new RepomemError(
            'BACKEND_UNAVAILABLE',
            `GitHub contents API ${what} reading ${where} after ${retries + 1} attempt(s)`,
            { cause: error, details: { repo, path, ref: revision } },
          );
        }
        throw error;
      }
    },
  };
}
