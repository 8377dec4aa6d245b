// Why: verification needs "the text of a file at a revision" and nothing else, so citation
// readers (local git, GitHub contents API, a plain directory) are one small interface and the
// verification logic is written once against it.
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

/**
 * Reads cited files. Implementations cache by (content revision, path) and throw a
 * `RepomemError` with code `BACKEND_UNAVAILABLE` when the source cannot be reached, so a
 * transient failure is never mistaken for a stale memory.
 */
export interface CitationReader {
  /** Short name for messages (`git`, `github`, `directory`). */
  readonly name: string;
  /** Read one file. */
  read(location: CitationLocation): Promise<CitationSource>;
}
