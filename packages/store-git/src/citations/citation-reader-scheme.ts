// Why: a citation source is named by one string through core's registry like a store; this is
// the git reader's part: `git:<repo-dir>[#<ref>]`, reading files at a revision straight from the
// object database (no checkout), with the caller's default revision when the spec names none.
import type { CitationReader, CitationReaderScheme, OpenCitationReaderContext } from '@repomem/core';
import { RepomemError } from '@repomem/core';
import { nodeFileSystem } from '../repository/file-system.js';
import { locateRepository } from '../repository/repository.js';
import { formatRepositorySpec, parseRepositorySpec } from '../repository/repository-spec.js';
import { createGitCitationReader } from './citation-reader.js';

/** A parsed `git:` citation-source spec. */
export interface GitCitationTarget {
  /** Absolute repository directory. */
  readonly dir: string;
  /** Revision named by the spec (branch, tag, commit id, with optional `~N`/`^N`). */
  readonly ref?: string;
}

const REVISION_CHARACTERS = /^[^\s\0\\:?*[]+$/;

/**
 * The `git:<repo-dir>[#<ref>]` citation-reader scheme. The revision is the spec's `#<ref>`, else
 * the context's `ref`, else `HEAD`; a relative directory resolves against the context's `cwd`.
 * Opening a directory that is not a repository is `NOT_FOUND`; an unknown revision is
 * `NOT_FOUND` when a citation is read.
 *
 * @example
 * ```ts
 * registerCitationReaderScheme(citationReaderScheme);
 * const reader = await openCitationReader('git:.#main', { cwd: '/work/app' });
 * ```
 */
export const citationReaderScheme: CitationReaderScheme<GitCitationTarget> = {
  scheme: 'git',
  grammar: 'git:<repo-dir>[#<ref>]',
  parse(rest, context): GitCitationTarget {
    const spec = parseRepositorySpec(rest, context.cwd, 'revision');
    if (spec.name === undefined) return { dir: spec.dir };
    if (!REVISION_CHARACTERS.test(spec.name)) {
      throw new RepomemError('INVALID_ARGUMENT', `revision ${JSON.stringify(spec.name)} is not a ref or commit id`, {
        details: { ref: spec.name },
      });
    }
    return { dir: spec.dir, ref: spec.name };
  },
  label: (target) => formatRepositorySpec(target.dir, target.ref),
  async open(target: GitCitationTarget, context: OpenCitationReaderContext): Promise<CitationReader> {
    await locateRepository(nodeFileSystem, target.dir);
    const ref = target.ref ?? context.ref;
    return createGitCitationReader({ dir: target.dir, ...(ref === undefined ? {} : { ref }) });
  },
};
