// Why: a merged pull request's memories should be re-verified at the merge commit when the
// delivery's repository can be read, and left for the next `recall` (said so in the summary) when
// it cannot. `repomem webhook` reads it through the GitHub API when a token is set, else through a
// local clone of that repository as the working directory, else not at all.
import type { CitationReader } from '@repomem/core';
import { createGitHubCitationReader } from '@repomem/github';
import { chooseCitationSource, openCitationSource } from '../citation-source.js';
import { originRepoOf } from '../git-clone.js';
import type { CliIo } from '../io.js';

/** How promoted memories are re-verified: through which reader, or deferred to the next `recall`. */
export type PromotionReader =
  | { readonly kind: 'github' | 'clone'; readonly reader: CitationReader }
  | { readonly kind: 'deferred' };

/**
 * The reader promotion re-verifies with, for deliveries about `repo`: the GitHub contents API when
 * `$GITHUB_TOKEN` (else `$GH_TOKEN`) is set (at `$GITHUB_API_URL`, default api.github.com), else
 * the git repository around the working directory when its `origin` names `repo`, else none.
 */
export async function openPromotionReader(io: Pick<CliIo, 'env' | 'cwd'>, repo: string): Promise<PromotionReader> {
  const token = io.env.GITHUB_TOKEN || io.env.GH_TOKEN || undefined;
  if (token !== undefined) return { kind: 'github', reader: createGitHubCitationReader({ token, env: io.env }) };
  const origin = originRepoOf(io.cwd);
  if (origin === undefined || origin.slug.toLowerCase() !== repo.toLowerCase()) return { kind: 'deferred' };
  const chosen = await chooseCitationSource(undefined, undefined, io);
  return { kind: 'clone', reader: await openCitationSource(chosen, repo) };
}
