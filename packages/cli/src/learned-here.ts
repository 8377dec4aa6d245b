// Why: `repomem learnings add` and `repomem episode write` record where the task learned what
// they write (issue 26) like `memories store` does: the clone's HEAD and current branch (read
// through the default citation source, the git repository around the working directory), else
// `$GITHUB_SHA` with `$GITHUB_HEAD_REF`/`$GITHUB_REF`. Outside a clone and outside Actions nothing
// is recorded: the default branch's scope, as before.
import { type CitationReader, type LearnedOn, resolveLearnedOn } from '@repomem/core';
import { chooseCitationSource, openCitationSource } from './citation-source.js';
import type { CliIo } from './io.js';

/** Where a record written now from `io.cwd` is learned, or `undefined` when nothing names it. */
export async function learnedHere(io: Pick<CliIo, 'env' | 'cwd'>, repo: string): Promise<LearnedOn | undefined> {
  let history: CitationReader | undefined;
  try {
    history = await openCitationSource(await chooseCitationSource(undefined, undefined, io), repo);
  } catch {
    // No readable clone here: the environment may still say where the work is.
    history = undefined;
  }
  const resolved = await resolveLearnedOn({ repo, env: io.env, ...(history === undefined ? {} : { history }) });
  return resolved.kind === 'learned' ? resolved.learnedOn : undefined;
}
