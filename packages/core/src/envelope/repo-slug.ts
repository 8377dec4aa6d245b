// Why: the `owner/repo` slug rule is needed far from the envelope (the CLI checks `--repo`, the
// GitHub citation reader checks its repository). It lives alone, free of zod schemas, so a
// caller that only checks a slug does not load and build the envelope's schemas.
import { describeValue } from './validation-issues.js';

const OWNER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/;
const REPO_NAME_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Returns why `slug` is not a valid GitHub `owner/repo` slug, or `undefined` when it is.
 * Owner: 1-39 letters, digits or hyphens, not starting with a hyphen. Repository name: 1-100
 * letters, digits, `.`, `_` or `-`, and not `.` or `..`.
 */
export function repoSlugProblem(slug: string): string | undefined {
  const parts = slug.split('/');
  if (parts.length !== 2) return `expected "owner/repo", got ${describeValue(slug)}`;
  const [owner = '', name = ''] = parts;
  if (!OWNER_PATTERN.test(owner)) {
    return `owner ${JSON.stringify(owner)} must be 1-39 letters, digits or hyphens, not starting with a hyphen`;
  }
  if (!REPO_NAME_PATTERN.test(name)) {
    return `repository name ${JSON.stringify(name)} must be 1-100 letters, digits, ".", "_" or "-"`;
  }
  if (name === '.' || name === '..') return `repository name ${JSON.stringify(name)} is reserved`;
  return undefined;
}

/** True when `slug` is a valid `owner/repo` slug (see {@link repoSlugProblem}). */
export function isRepoSlug(slug: unknown): slug is string {
  return typeof slug === 'string' && repoSlugProblem(slug) === undefined;
}
