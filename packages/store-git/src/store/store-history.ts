// Why: the store contract's `history` speaks store-neutral types, while the git store keeps its
// richer ones (full commit ids, author and committer signatures) for git-aware callers. This is
// the one mapping between them: revision = commit id, author = `Name <email>`, time = commit time.
import type { HistoryEntry, HistoryLogOptions, HistoryPoint, HistoryReadResult, StoreHistory } from '@repomem/core';
import type { HistoryOptions, ReadAtResult, Revision, RevisionSpec } from './history.js';

/** A git {@link Revision} as a store-neutral {@link HistoryEntry}. */
export function toHistoryEntry(revision: Revision): HistoryEntry {
  return {
    revision: revision.oid,
    time: revision.time,
    message: revision.message,
    body: revision.body,
    trailers: revision.trailers,
    author: `${revision.author.name} <${revision.author.email}>`,
    parents: revision.parents,
  };
}

/** The git-specific history functions the contract's history is built on. */
export interface GitHistoryFunctions {
  log(options?: HistoryOptions): Promise<Revision[]>;
  readAt(path: string, at: RevisionSpec): Promise<ReadAtResult>;
}

/** The contract's {@link StoreHistory} over the git history functions. */
export function storeHistoryOf(git: GitHistoryFunctions): StoreHistory {
  return Object.freeze({
    async log(options?: HistoryLogOptions): Promise<HistoryEntry[]> {
      return (await git.log(options)).map(toHistoryEntry);
    },
    async readAt(path: string, at: HistoryPoint): Promise<HistoryReadResult> {
      const result = await git.readAt(path, at);
      if (result.status === 'no_revision') return result;
      return { ...result, revision: toHistoryEntry(result.revision) };
    },
  });
}
