// Why: branch scope asks whether the working ref contains the commits memories were learned at.
// An Actions run without a clone has no `git rev-list`, but GitHub's compare API answers exactly
// that: `GET /compare/{commit}...{head}` says `ahead` or `identical` when the commit is an
// ancestor of the head, `behind` or `diverged` when it is not. One request per distinct commit,
// a few at a time, each answer validated before it is trusted.
import { type AncestryAnswer, RepomemError } from '@repomem/core';
import { z } from 'zod';
import { parseGitHubJson } from './github-compare-schema.js';
import type { GitHubGet } from './github-get.js';

/** Most distinct commits asked about in one question (one request each); the rest count as not contained. */
export const GITHUB_ANCESTRY_MAX_COMMITS = 200;
/** Requests in flight at once. */
const CONCURRENCY = 4;
const COMMIT = /^[0-9a-f]{7,40}$/;

/** The part of a comparison ancestry needs. */
const CompareStatusSchema = z.looseObject({ status: z.enum(['diverged', 'ahead', 'behind', 'identical']) });

/**
 * Which of `commits` the history of `head` contains, through the compare API of `owner/name`.
 * A commit GitHub does not know (404) is not contained; a malformed answer or a failing API
 * throws `BACKEND_UNAVAILABLE` (the caller's read then fails, nothing is decided wrongly).
 */
export async function githubAncestry(
  get: GitHubGet,
  owner: string,
  name: string,
  head: string,
  commits: readonly string[],
): Promise<AncestryAnswer> {
  const asked = [...new Set(commits.map((commit) => commit.toLowerCase()))].filter((commit) => COMMIT.test(commit));
  const contained = new Set<string>();
  const containedLower = new Set<string>();
  let next = 0;
  const work = async (): Promise<void> => {
    while (next < Math.min(asked.length, GITHUB_ANCESTRY_MAX_COMMITS)) {
      const commit = asked[next] as string;
      next += 1;
      const where = `the comparison ${commit}...${head} of ${owner}/${name}`;
      const answer = await get(
        'GET /repos/{owner}/{repo}/compare/{basehead}',
        { owner, repo: name, basehead: `${commit}...${head}`, per_page: 1 },
        where,
      );
      if (answer.kind !== 'ok') continue;
      const parsed = parseGitHubJson(CompareStatusSchema, answer.data);
      if (!parsed.ok) {
        throw new RepomemError('BACKEND_UNAVAILABLE', `GitHub returned an unexpected comparison: ${parsed.problem}`);
      }
      if (parsed.value.status === 'ahead' || parsed.value.status === 'identical') containedLower.add(commit);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, work));
  for (const commit of commits) if (containedLower.has(commit.toLowerCase())) contained.add(commit);
  return { kind: 'known', headCommit: head, contained };
}
