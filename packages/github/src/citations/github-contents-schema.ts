// Why: the GitHub contents API is outside data, so its JSON is validated with zod before the
// reader trusts a size, an encoding or a blob id; anything else is reported as a broken backend.
import { z } from 'zod';

/**
 * The object GitHub returns for one path: a `file` with base64 `content` (or `encoding: "none"`
 * and empty content above 1 MB), or another entry type (`symlink`, `submodule`) without content.
 */
export const GitHubContentsEntrySchema = z.looseObject({
  type: z.string(),
  size: z.number().int().nonnegative(),
  name: z.string(),
  path: z.string(),
  sha: z.string().regex(/^[0-9a-f]{40}$/, { message: 'sha must be a 40-hex blob id' }),
  encoding: z.string().optional(),
  content: z.string().optional(),
});

/** A validated contents entry. */
export type GitHubContentsEntry = z.infer<typeof GitHubContentsEntrySchema>;

/** A validated contents response: a directory listing or a single entry. */
export type GitHubContentsResponse =
  | { readonly kind: 'directory' }
  | { readonly kind: 'entry'; readonly entry: GitHubContentsEntry };

/**
 * Validate a contents API response body. Returns the parsed response, or the first problem as a
 * human-readable string.
 */
export function parseGitHubContents(
  body: unknown,
): { readonly ok: true; readonly value: GitHubContentsResponse } | { readonly ok: false; readonly problem: string } {
  // A directory is answered with an array of entries; only its presence matters (not a cited file).
  if (Array.isArray(body)) return { ok: true, value: { kind: 'directory' } };
  const parsed = GitHubContentsEntrySchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    return { ok: false, problem: `${issue?.message ?? 'unexpected shape'}${where}` };
  }
  return { ok: true, value: { kind: 'entry', entry: parsed.data } };
}
