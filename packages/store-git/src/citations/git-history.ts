// Why: branch scope asks whether many commits are in a head's history. One `git rev-list <head>`
// lists that history once (git walks it with its commit-graph, milliseconds for thousands of
// commits); the ids go into core's prefix-matching CommitSet, cached by head commit id (immutable),
// so every later question about the same head costs a set lookup per commit.
import { type CommitSet, createCommitSet } from '@repomem/core';
import { LRUCache } from 'lru-cache';
import { runGit } from './run-git.js';

/** A full commit id (SHA-1 or SHA-256), the only form the history is asked about. */
const FULL_COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** The history of a head: its commits, or why it cannot be read. */
export type HeadHistory =
  | { readonly ok: true; readonly commits: CommitSet }
  | { readonly ok: false; readonly reason: string };

/** Histories of heads of the repository at `dir`, through the git CLI. */
export interface GitHistory {
  /** The commits reachable from `headCommit` (a full commit id), itself included. */
  of(headCommit: string): Promise<HeadHistory>;
}

/**
 * A {@link GitHistory} over the git CLI in `dir`, keeping the histories of the last `cacheSize`
 * heads (default 4). A failure (no git, an unknown commit) is not cached.
 */
export function createGitHistory(dir: string, cacheSize = 4): GitHistory {
  const histories = new LRUCache<string, Promise<HeadHistory>>({ max: cacheSize });
  return {
    of(headCommit) {
      if (!FULL_COMMIT.test(headCommit)) {
        return Promise.resolve({ ok: false, reason: `not a full commit id: ${JSON.stringify(headCommit)}` });
      }
      let history = histories.get(headCommit);
      if (history === undefined) {
        history = runGit(dir, ['rev-list', headCommit, '--']).then(
          (output): HeadHistory => ({ ok: true, commits: createCommitSet(output.split('\n')) }),
          (error: unknown): HeadHistory => {
            histories.delete(headCommit);
            return { ok: false, reason: error instanceof Error ? error.message : String(error) };
          },
        );
        histories.set(headCommit, history);
      }
      return history;
    },
  };
}
