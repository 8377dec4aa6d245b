// Why: core's registry opens citation sources from a short spec (`github`, `github:owner/repo`)
// for the CLI, the MCP server and library users alike; this is the `github` scheme it loads
// from this package on demand. The opened reader is bound to one repository and reads at the
// context's revision unless a citation names its own.
import {
  type CitationLocation,
  type CitationReader,
  type CitationReaderScheme,
  type CitationSource,
  DEFAULT_STORE_REPO,
  type LineMapping,
  type LineMapRequest,
  RepomemError,
  type RevisionRequest,
  repoSlugProblem,
} from '@repomem/core';
import { createGitHubCitationReader } from './github-reader.js';

/** What a `github` spec names: the repository to read, or none (then the context's repository). */
export interface GitHubCitationReaderTarget {
  /** `owner/repo` from `github:<owner>/<repo>`; `undefined` for a bare `github`. */
  readonly repo?: string;
}

/**
 * Reads every citation in `repo`, at `ref` when the citation names no revision; maps lines in
 * `repo` to `ref` when the request names no target revision, and resolves `ref` to its commit.
 */
function boundReader(reader: CitationReader, repo: string, ref: string | undefined): CitationReader {
  const mapLines = reader.mapLines?.bind(reader);
  const resolveRevision = reader.resolveRevision?.bind(reader);
  return {
    name: reader.name,
    ...(resolveRevision === undefined
      ? {}
      : {
          resolveRevision: (request: RevisionRequest): Promise<string | undefined> => {
            const at = request.ref ?? ref;
            return resolveRevision(at === undefined ? { repo } : { repo, ref: at });
          },
        }),
    ...(mapLines === undefined
      ? {}
      : {
          mapLines: (request: LineMapRequest): Promise<LineMapping> => {
            const to = request.to ?? ref;
            const { to: _asked, ...rest } = request;
            return mapLines(to === undefined ? { ...rest, repo } : { ...rest, repo, to });
          },
        }),
    read: (location: CitationLocation): Promise<CitationSource> => {
      const at = location.ref ?? ref;
      return reader.read(at === undefined ? { repo, path: location.path } : { repo, path: location.path, ref: at });
    },
  };
}

/**
 * The `github` citation-reader scheme, loaded by core's registry for `openCitationReader('github')`.
 *
 * - Spec: `github` (the repository is the context's `repo`) or `github:<owner>/<repo>`.
 * - The reader reads that repository whatever repository a citation's memory belongs to, at the
 *   context's `ref` when the read names none (else the default branch).
 * - The endpoint and token come from the context's environment: `GITHUB_API_URL`,
 *   `GITHUB_TOKEN` (the rules of `resolveGitHubEndpoint`).
 * - A bare `github` with no repository in the context (the registry's placeholder `local/default`)
 *   throws `INVALID_ARGUMENT`: reading a repository that does not exist would call every cited
 *   file missing.
 *
 * @example
 * ```ts
 * import { openCitationReader } from '@repomem/core';
 *
 * const reader = await openCitationReader('github', { repo: 'acme/app', ref: 'main' });
 * ```
 */
export const citationReaderScheme: CitationReaderScheme<GitHubCitationReaderTarget> = {
  scheme: 'github',
  grammar: 'github or github:<owner>/<repo>',
  parse(rest) {
    if (rest === '') return {};
    const problem = repoSlugProblem(rest);
    if (problem !== undefined) {
      throw new RepomemError('INVALID_ARGUMENT', `invalid repository: ${problem}`, { details: { repo: rest } });
    }
    return { repo: rest };
  },
  label: (target) => (target.repo === undefined ? 'github' : `github:${target.repo}`),
  async open(target, context) {
    const repo = target.repo ?? context.repo;
    if (target.repo === undefined && repo === DEFAULT_STORE_REPO) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        'the github citation source needs a repository: name it in the spec (github:<owner>/<repo>) or pass repo',
        { details: { repo } },
      );
    }
    const reader = createGitHubCitationReader({ env: context.env });
    return boundReader(reader, repo, context.ref);
  },
};
