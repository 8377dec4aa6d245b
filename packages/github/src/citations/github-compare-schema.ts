// Why: the compare API (`GET /repos/{owner}/{repo}/compare/{base}...{head}`) is outside data that
// decides whether a memory's cited lines moved or changed, so its JSON is validated with zod before
// the line mapper trusts a status, a previous path or a patch; anything else is a broken backend.
import { z } from 'zod';

/** One changed file of a comparison (GitHub leaves `patch` out for binary or too large diffs). */
export const GitHubCompareFileSchema = z.looseObject({
  filename: z.string().min(1),
  status: z.enum(['added', 'removed', 'modified', 'renamed', 'copied', 'changed', 'unchanged']),
  changes: z.number().int().nonnegative(),
  previous_filename: z.string().min(1).optional(),
  patch: z.string().optional(),
});

/** The parts of a comparison the line mapper reads. */
export const GitHubCompareSchema = z.looseObject({
  status: z.enum(['diverged', 'ahead', 'behind', 'identical']),
  base_commit: z.looseObject({ sha: z.string().regex(/^[0-9a-f]{40}$/) }),
  merge_base_commit: z.looseObject({ sha: z.string().regex(/^[0-9a-f]{40}$/) }),
  files: z.array(GitHubCompareFileSchema).optional(),
});

/** A validated changed file. */
export type GitHubCompareFile = z.infer<typeof GitHubCompareFileSchema>;
/** A validated comparison. */
export type GitHubCompare = z.infer<typeof GitHubCompareSchema>;

/** The answer of `GET /repos/{owner}/{repo}` the mapper needs (the default branch to compare to). */
export const GitHubRepositorySchema = z.looseObject({ default_branch: z.string().min(1) });

/**
 * Validate `body` with `schema`. Returns the parsed value, or the first problem as a
 * human-readable string.
 */
export function parseGitHubJson<T>(
  schema: z.ZodType<T>,
  body: unknown,
): { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string } {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
  return { ok: false, problem: `${issue?.message ?? 'unexpected shape'}${where}` };
}
