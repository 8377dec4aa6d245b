// Why: a repository that is not checked out has no `git diff`, but GitHub's compare API says
// the same things per file (renamed from where, deleted, which hunks changed), so the GitHub
// reader follows citations through renames and moved lines like the git reader does. One compare
// request serves every citation of a pair of revisions (cached by commit ids, revalidated with its
// ETag otherwise); whatever the comparison cannot vouch for (a missing patch, a truncated file
// list, a base that is not an ancestor of the head) maps as `unknown`, so verification falls back
// to the snippet search instead of guessing.
import type { Octokit } from '@octokit/core';
import {
  type AncestryAnswer,
  type AncestryRequest,
  type BranchNames,
  type LineMapping,
  type LineMapRequest,
  normalizeDocumentPath,
  RepomemError,
  repoSlugProblem,
} from '@repomem/core';
import { LRUCache } from 'lru-cache';
import { githubAncestry } from './github-ancestry.js';
import {
  type GitHubCompare,
  GitHubCompareSchema,
  GitHubRepositorySchema,
  parseGitHubJson,
} from './github-compare-schema.js';
import { createGitHubGet } from './github-get.js';
import { type FileChange, mapThroughChange, patchHunks } from './patch-line-map.js';

/** GitHub lists at most this many files in a comparison; with as many, others may be left out. */
export const GITHUB_COMPARE_MAX_FILES = 300;

const FULL_COMMIT_SHA = /^[0-9a-f]{40}$/;

/** A base-path entry: how the file changed, or `unknown` when the comparison does not show it. */
type ChangeEntry = FileChange | { readonly unknown: string };

/** What one comparison says, for every path of the base revision. */
type Comparison =
  | { readonly ok: true; readonly changes: ReadonlyMap<string, ChangeEntry>; readonly truncated: boolean }
  | { readonly ok: false; readonly reason: string };

interface CachedComparison {
  readonly etag: string | undefined;
  readonly comparison: Comparison;
}

/** Options of {@link createGitHubLineMapper}. */
export interface GitHubLineMapperOptions {
  /** Comparisons kept (default 16). */
  readonly cacheSize?: number;
  /** Retries after a 5xx or a network error (default 2). */
  readonly retries?: number;
  /** First delay between retries in ms, doubled each time (default 200). */
  readonly retryDelayMs?: number;
}

/** A ref GitHub may be asked to compare: no whitespace, no `..` (never a range), not an option. */
function refProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return 'expected a branch, tag or commit id';
  if (/[\s\0]/.test(value) || value.includes('..') || value.startsWith('-')) {
    return `${JSON.stringify(value)} is not a branch, tag or commit id`;
  }
  return undefined;
}

/** Index a validated comparison by base path. */
export function indexComparison(compare: GitHubCompare): Comparison {
  if (compare.status === 'diverged' || compare.status === 'behind') {
    return {
      ok: false,
      reason: `the base is not an ancestor of the head (GitHub says ${compare.status}); the diff from their merge base does not describe the cited lines`,
    };
  }
  if (compare.merge_base_commit.sha !== compare.base_commit.sha) {
    return { ok: false, reason: 'the base is not the merge base of the comparison' };
  }
  const files = compare.files ?? [];
  const changes = new Map<string, ChangeEntry>();
  for (const file of files) {
    const path = file.filename;
    switch (file.status) {
      case 'added':
      case 'copied':
      case 'unchanged':
        // Nothing cited at the base lives at an added path; a copy leaves its source untouched.
        break;
      case 'removed':
        changes.set(path, { old_path: path, new_path: null, hunks: [] });
        break;
      case 'renamed':
      case 'modified':
      case 'changed': {
        const oldPath = file.status === 'renamed' ? file.previous_filename : path;
        if (oldPath === undefined) return { ok: false, reason: `GitHub named no previous path for renamed ${path}` };
        if (file.patch === undefined) {
          // A pure rename has no patch and no changes; otherwise GitHub left the patch out (too large, binary).
          if (file.status === 'renamed' && file.changes === 0) {
            changes.set(oldPath, { old_path: oldPath, new_path: path, hunks: [] });
          } else {
            changes.set(oldPath, { unknown: `GitHub sent no patch for ${path} (too large or binary)` });
          }
          break;
        }
        const hunks = patchHunks(file.patch);
        changes.set(
          oldPath,
          hunks === undefined
            ? { unknown: `GitHub sent a patch for ${path} that does not parse` }
            : { old_path: oldPath, new_path: path, hunks },
        );
        break;
      }
    }
  }
  return { ok: true, changes, truncated: files.length >= GITHUB_COMPARE_MAX_FILES };
}

/** Maps cited lines between two revisions of a GitHub repository through the compare API. */
export interface GitHubLineMapper {
  /** See {@link CitationReader.mapLines}; `to` absent = the repository's default branch. */
  mapLines(request: LineMapRequest): Promise<LineMapping>;
  /** See {@link CitationReader.ancestry}; `head` absent = the repository's default branch. */
  ancestry(request: AncestryRequest): Promise<AncestryAnswer>;
  /** See {@link CitationReader.branches}: the default branch (GitHub knows no "current" one). */
  branches(repo: string): Promise<BranchNames>;
}

/**
 * A {@link GitHubLineMapper} over `octokit`: `GET /repos/{owner}/{repo}/compare/{from}...{to}`
 * (and `GET /repos/{owner}/{repo}` once per repository for the default branch when `to` is absent).
 *
 * - renamed (`previous_filename`) → the new path; removed → `deleted`; hunks of `patch` map the
 *   lines as `git diff --unified=0` would (`same`, `moved`, `changed`);
 * - `unknown`: no patch (too large or binary), a comparison of 300 files or more that does not
 *   list the path, a base that is not an ancestor of the head (`diverged`, `behind`), an unknown
 *   revision (404), an invalid ref;
 * - authentication failures, other statuses and exhausted retries throw `BACKEND_UNAVAILABLE`;
 *   an invalid repository slug throws `INVALID_ARGUMENT`.
 */
export function createGitHubLineMapper(octokit: Octokit, options: GitHubLineMapperOptions = {}): GitHubLineMapper {
  const retries = options.retries ?? 2;
  const retryDelayMs = options.retryDelayMs ?? 200;
  const cache = new LRUCache<string, CachedComparison>({ max: options.cacheSize ?? 16 });
  const pending = new Map<string, Promise<Comparison>>();
  const defaultBranches = new Map<string, Promise<string | { readonly unknown: string }>>();

  const get = createGitHubGet(octokit, retries, retryDelayMs);

  const defaultBranch = (owner: string, name: string): Promise<string | { readonly unknown: string }> => {
    const key = `${owner}/${name}`;
    let branch = defaultBranches.get(key);
    if (branch === undefined) {
      branch = get('GET /repos/{owner}/{repo}', { owner, repo: name }, `the repository ${key}`).then((answer) => {
        if (answer.kind !== 'ok') return { unknown: `GitHub has no repository ${key}` };
        const parsed = parseGitHubJson(GitHubRepositorySchema, answer.data);
        if (!parsed.ok) {
          throw new RepomemError('BACKEND_UNAVAILABLE', `GitHub returned an unexpected repository: ${parsed.problem}`);
        }
        return parsed.value.default_branch;
      });
      defaultBranches.set(key, branch);
      branch.catch(() => defaultBranches.delete(key));
    }
    return branch;
  };

  const compare = (owner: string, name: string, from: string, to: string): Promise<Comparison> => {
    const key = `${owner}/${name}\0${from}\0${to}`;
    const immutable = FULL_COMMIT_SHA.test(from) && FULL_COMMIT_SHA.test(to);
    const cached = cache.get(key);
    if (cached !== undefined && immutable) return Promise.resolve(cached.comparison);
    const inFlight = pending.get(key);
    if (inFlight !== undefined) return inFlight;
    const where = `the comparison ${from}...${to} of ${owner}/${name}`;
    const request = (async (): Promise<Comparison> => {
      const answer = await get(
        'GET /repos/{owner}/{repo}/compare/{basehead}',
        {
          owner,
          repo: name,
          basehead: `${from}...${to}`,
          ...(cached?.etag === undefined ? {} : { headers: { 'if-none-match': cached.etag } }),
        },
        where,
      );
      if (answer.kind === 'not_modified') {
        if (cached !== undefined) return cached.comparison;
        throw new RepomemError('BACKEND_UNAVAILABLE', `GitHub answered 304 for ${where} without a cached copy`);
      }
      if (answer.kind === 'not_found') {
        cache.delete(key);
        return { ok: false, reason: `GitHub cannot compare ${from}...${to}: ${answer.message}` };
      }
      const parsed = parseGitHubJson(GitHubCompareSchema, answer.data);
      if (!parsed.ok) {
        throw new RepomemError('BACKEND_UNAVAILABLE', `GitHub returned an unexpected comparison: ${parsed.problem}`);
      }
      const comparison = indexComparison(parsed.value);
      if (immutable || answer.etag !== undefined) cache.set(key, { etag: answer.etag, comparison });
      return comparison;
    })();
    pending.set(key, request);
    const settle = () => pending.delete(key);
    request.then(settle, settle);
    return request;
  };

  /** `owner` and `name` of a slug, or `INVALID_ARGUMENT`. */
  const ownerAndName = (repo: unknown): [string, string] => {
    const slugProblem = typeof repo === 'string' ? repoSlugProblem(repo) : 'repo must be a string';
    if (slugProblem !== undefined) {
      throw new RepomemError('INVALID_ARGUMENT', `GitHub citation reader: invalid repository slug: ${slugProblem}`, {
        details: { repo },
      });
    }
    const [owner = '', name = ''] = (repo as string).split('/');
    return [owner, name];
  };

  return {
    async ancestry(request) {
      const [owner, name] = ownerAndName(request.repo);
      const head = request.head ?? (await defaultBranch(owner, name));
      if (typeof head !== 'string') return { kind: 'unknown', reason: head.unknown };
      const headProblem = refProblem(head);
      if (headProblem !== undefined) return { kind: 'unknown', reason: `head: ${headProblem}` };
      return githubAncestry(get, owner, name, head, request.commits);
    },
    async branches(repo) {
      const [owner, name] = ownerAndName(repo);
      const branch = await defaultBranch(owner, name);
      return typeof branch === 'string' ? { defaultBranch: branch } : {};
    },
    async mapLines(request) {
      ownerAndName(request.repo);
      const fromProblem = refProblem(request.from);
      if (fromProblem !== undefined) return { kind: 'unknown', reason: `from: ${fromProblem}` };
      if (request.to !== undefined) {
        const toProblem = refProblem(request.to);
        if (toProblem !== undefined) return { kind: 'unknown', reason: `to: ${toProblem}` };
      }
      const path = normalizeDocumentPath(request.path);
      const [owner = '', name = ''] = request.repo.split('/');
      const to = request.to ?? (await defaultBranch(owner, name));
      if (typeof to !== 'string') return { kind: 'unknown', reason: to.unknown };
      if (request.from === to) return { kind: 'same', file_changed: false };
      const comparison = await compare(owner, name, request.from, to);
      if (!comparison.ok) return { kind: 'unknown', reason: comparison.reason };
      const change = comparison.changes.get(path);
      if (change !== undefined && 'unknown' in change) return { kind: 'unknown', reason: change.unknown };
      if (change === undefined && comparison.truncated) {
        return {
          kind: 'unknown',
          reason: `GitHub lists only ${GITHUB_COMPARE_MAX_FILES} files of ${request.from}...${to}; ${path} may be among the others`,
        };
      }
      return mapThroughChange(change, request.line_start, request.line_end);
    },
  };
}
