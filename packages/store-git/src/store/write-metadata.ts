// Why: the store contract's write metadata (summary, body, trailers, and the code commit and
// branch the change was learned on) becomes one commit message in the convention `git log` and
// `history` read back. The source goes into trailers, `Source-Commit:` and `Source-Branch:`, so
// it is greppable (`git log --grep '^Source-Branch: main$'`) and survives any git tool.
import { RepomemError, type WriteMetadata, type WriteSource } from '@repomem/core';
import { branchNameProblem } from '../refs/branch-name.js';
import { type CommitMessage, splitMessage } from './commit-message.js';

/** Trailer holding {@link WriteSource.commit}. */
export const SOURCE_COMMIT_TRAILER = 'Source-Commit';
/** Trailer holding {@link WriteSource.branch}. */
export const SOURCE_BRANCH_TRAILER = 'Source-Branch';

const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

function invalid(message: string): RepomemError {
  return new RepomemError('INVALID_ARGUMENT', message);
}

/** The trailers recording `source`; throws `INVALID_ARGUMENT` for a malformed commit id or branch name. */
export function sourceTrailers(source: WriteSource | undefined): Record<string, string> {
  if (source === undefined) return {};
  if (source === null || typeof source !== 'object')
    throw invalid('metadata.source must be an object { commit?, branch? }');
  const trailers: Record<string, string> = {};
  if (source.commit !== undefined) {
    const commit = typeof source.commit === 'string' ? source.commit.toLowerCase() : '';
    if (!COMMIT_ID.test(commit)) {
      throw invalid(
        `metadata.source.commit must be a full commit id (40 or 64 hex digits), got ${JSON.stringify(source.commit)}`,
      );
    }
    trailers[SOURCE_COMMIT_TRAILER] = commit;
  }
  if (source.branch !== undefined) {
    const problem = branchNameProblem(source.branch);
    if (problem !== undefined) {
      throw invalid(`metadata.source.branch ${JSON.stringify(source.branch)} is not a branch name: it ${problem}`);
    }
    trailers[SOURCE_BRANCH_TRAILER] = source.branch;
  }
  return trailers;
}

/** The source a commit's trailers record, or `undefined` when they record none. */
export function sourceOfTrailers(trailers: Readonly<Record<string, string>>): WriteSource | undefined {
  const commit = trailers[SOURCE_COMMIT_TRAILER];
  const branch = trailers[SOURCE_BRANCH_TRAILER];
  if (commit === undefined && branch === undefined) return undefined;
  return { ...(commit === undefined ? {} : { commit }), ...(branch === undefined ? {} : { branch }) };
}

/**
 * The commit message of a write: the first line of `message` is the subject (`fallbackSubject`
 * when there is none), the rest of `message` and then `body` form the body, and the trailers are
 * `trailers` plus the source trailers (which win over trailers of the same name).
 */
export function commitMessageOf(metadata: WriteMetadata | undefined, fallbackSubject: () => string): CommitMessage {
  if (metadata !== undefined && (metadata === null || typeof metadata !== 'object')) {
    throw invalid('write metadata must be an object { message?, body?, trailers?, source? }');
  }
  if (metadata?.body !== undefined && typeof metadata.body !== 'string')
    throw invalid('metadata.body must be a string');
  const split = splitMessage(typeof metadata?.message === 'string' ? metadata.message : '');
  const body = [split.body, metadata?.body?.trim() ?? ''].filter((part) => part.length > 0).join('\n\n');
  const source = sourceTrailers(metadata?.source);
  const trailers =
    metadata?.trailers === undefined && Object.keys(source).length === 0
      ? undefined
      : { ...metadata?.trailers, ...source };
  return { subject: split.subject.length > 0 ? split.subject : fallbackSubject(), body, trailers };
}
