// Why: verification needs "the text of a file at a revision" and nothing else, so citation
// readers (local git, GitHub contents API, a plain directory) are one small interface and the
// verification logic is written once against it.
import type { BranchHistory } from '../scope/branch-history.js';

/** What a reader found at `path`. Reader failures (network, auth) are thrown, not returned. */
export type CitationSource =
  /** The file, decoded as UTF-8 text. `blobSha` identifies the content (git blob id). */
  | { readonly kind: 'text'; readonly text: string; readonly blobSha: string; readonly revision: string }
  /** No such file at that revision. */
  | { readonly kind: 'missing'; readonly revision: string }
  /** The file exists but is binary (NUL bytes or invalid UTF-8); it cannot support a memory. */
  | { readonly kind: 'binary'; readonly revision: string }
  /** The file exists but is larger than the reader's limit. */
  | { readonly kind: 'too_large'; readonly revision: string; readonly bytes: number };

/** Where to read: a repository, and a revision (branch, tag or commit; default the reader's HEAD). */
export interface CitationLocation {
  /** Repository slug `owner/name` (readers bound to one local repository may ignore it). */
  readonly repo: string;
  /** Normalised repository-relative path. */
  readonly path: string;
  /** Revision; `undefined` = the reader's default (HEAD / default branch). */
  readonly ref?: string;
}

/** What {@link CitationReader.mapLines} is asked: where cited lines at `from` are at `to`. */
export interface LineMapRequest {
  /** Repository slug `owner/name` (readers bound to one local repository may ignore it). */
  readonly repo: string;
  /** The revision the lines are cited at (usually the citation's `verified_commit`). */
  readonly from: string;
  /** The revision to map to; `undefined` = the reader's default (HEAD / default branch). */
  readonly to?: string;
  /** Normalised repository-relative path at `from`. */
  readonly path: string;
  /** First cited line at `from` (1-indexed). */
  readonly line_start: number;
  /** Last cited line at `from` (inclusive). */
  readonly line_end: number;
}

/**
 * Where cited lines went between two revisions, as the diff between them says (renames detected).
 * Only `changed` and `deleted` mean the cited lines themselves were touched.
 */
export type LineMapping =
  /** Same path, same lines; `file_changed` tells whether the diff touched the file elsewhere. */
  | { readonly kind: 'same'; readonly file_changed: boolean }
  /** The lines are intact at another path (rename) and/or other line numbers (edits above). */
  | { readonly kind: 'moved'; readonly path: string; readonly line_start: number; readonly line_end: number }
  /**
   * A hunk touches the cited lines; `path` is the file's path at `to` and the range is where
   * the hunk's new lines are nearest the cited ones (a starting point for a snippet search).
   */
  | {
      readonly kind: 'changed';
      readonly path: string;
      readonly line_start: number;
      readonly line_end: number;
      /**
       * Line ranges (at `to`) the diff added to the file: a snippet found again there was moved by
       * the diff; one found only in lines the diff left alone is another copy, not the cited code.
       */
      readonly added?: readonly { readonly line_start: number; readonly line_end: number }[];
    }
  /** The file was deleted (and not renamed). */
  | { readonly kind: 'deleted' }
  /** The diff cannot be computed (unknown or unreachable revision, no git): check as before. */
  | { readonly kind: 'unknown'; readonly reason: string };

/**
 * Reads cited files. Implementations cache by (content revision, path) and throw a
 * `RepomemError` with code `BACKEND_UNAVAILABLE` when the source cannot be reached, so a
 * transient failure is never mistaken for a stale memory.
 */
export interface CitationReader extends BranchHistory {
  /** Short name for messages (`git`, `github`, `directory`). */
  readonly name: string;
  /** Read one file. */
  read(location: CitationLocation): Promise<CitationSource>;
  /**
   * Optional capability of readers over a history (git): map cited lines from one revision to
   * another through rename detection and the diff's line mapping. Verification uses it before
   * searching the snippet; without it (a plain directory) only the snippet search applies.
   */
  mapLines?(request: LineMapRequest): Promise<LineMapping>;
  /**
   * Optional capability of readers addressed by names (the GitHub API): the commit id `ref` (a
   * branch, a tag; `undefined` = the reader's default) names now, so verification reads and maps
   * at one commit and can record it as the citation's `verified_commit`. `undefined` = the reader
   * cannot say (verification then reads at `ref` as given); a failure to ask throws
   * `BACKEND_UNAVAILABLE`.
   */
  resolveRevision?(request: RevisionRequest): Promise<string | undefined>;
}

/** What {@link CitationReader.resolveRevision} is asked: the commit a revision name stands for. */
export interface RevisionRequest {
  /** Repository slug `owner/name` (readers bound to one local repository may ignore it). */
  readonly repo: string;
  /** Branch, tag or other name; `undefined` = the reader's default (HEAD / default branch). */
  readonly ref?: string;
}
