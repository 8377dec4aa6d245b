// Why: branch scope needs two facts from git that verification does not: which branch the agent
// is on (and which is the default branch), and which commits a revision's history contains. They
// are optional capabilities of a citation reader (the local git reader answers them with one
// `git rev-list` per head, the GitHub reader with the compare API), declared once here so the
// scope logic is written against them and never against a particular git access.

/** What {@link BranchHistory.ancestry} is asked: which of `commits` are in `head`'s history. */
export interface AncestryRequest {
  /** Repository slug `owner/name` (readers bound to one local repository may ignore it). */
  readonly repo: string;
  /** The revision whose history is asked about; `undefined` = the reader's default (HEAD). */
  readonly head?: string;
  /** Commit ids, full or abbreviated (7+ hex digits), as memories record them. */
  readonly commits: readonly string[];
}

/** The answer of {@link BranchHistory.ancestry}. */
export type AncestryAnswer =
  /** `contained` holds each asked commit (as asked) that `head` (resolved to `headCommit`) contains. */
  | { readonly kind: 'known'; readonly headCommit: string; readonly contained: ReadonlySet<string> }
  /** The history cannot be read (unknown head, no git): callers fail closed. */
  | { readonly kind: 'unknown'; readonly reason: string };

/** Which branch a reader reads by default, and the repository's default branch. */
export interface BranchNames {
  /** The branch the reader's default revision is on (`undefined` when detached or unknown). */
  readonly current?: string;
  /** The repository's default branch (`undefined` when unknown). */
  readonly defaultBranch?: string;
}

/** The git history questions branch scope asks (optional capabilities of a citation reader). */
export interface BranchHistory {
  /**
   * Which of `request.commits` are ancestors of (or equal to) `request.head`. A commit the
   * repository does not know is simply not contained. Reader failures (network, auth) throw
   * `BACKEND_UNAVAILABLE`; an unknown head answers `unknown`.
   */
  ancestry?(request: AncestryRequest): Promise<AncestryAnswer>;
  /** The current and default branch names, as far as the reader knows them. */
  branches?(repo: string): Promise<BranchNames>;
}
