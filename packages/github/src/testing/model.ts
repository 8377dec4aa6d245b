// Why: the in-memory model the loopback GitHub API serves. Scalar fields carry GitHub's GraphQL
// names and value formats (ISO timestamps to the second, enum strings), so the GraphQL layer reads
// them directly; relations hold logins and names that the resolvers turn into GraphQL objects. The
// field set is what the `gh --json` mirror files need, plus what a sync commonly asks for.

/** A reaction kind, as GitHub's `ReactionContent` enum spells it. */
export type GitHubReactionContent =
  | 'THUMBS_UP'
  | 'THUMBS_DOWN'
  | 'LAUGH'
  | 'HOORAY'
  | 'CONFUSED'
  | 'HEART'
  | 'ROCKET'
  | 'EYES';

/** GitHub's order of reaction groups (every group is served, zero counts included, as GitHub does). */
export const REACTION_CONTENTS: readonly GitHubReactionContent[] = [
  'THUMBS_UP',
  'THUMBS_DOWN',
  'LAUGH',
  'HOORAY',
  'CONFUSED',
  'HEART',
  'ROCKET',
  'EYES',
];

/** How a comment's author relates to the repository (`CommentAuthorAssociation`). */
export type GitHubAuthorAssociation =
  | 'COLLABORATOR'
  | 'CONTRIBUTOR'
  | 'FIRST_TIMER'
  | 'FIRST_TIME_CONTRIBUTOR'
  | 'MANNEQUIN'
  | 'MEMBER'
  | 'NONE'
  | 'OWNER';

/** A user, bot or organization that authors content. */
export interface GitHubActorData {
  /** Login as GraphQL returns it (a GitHub App's bot is `name`, without `[bot]` or `app/`). */
  login: string;
  /** GraphQL type: `User`, `Bot` (GitHub Apps) or `Organization`. */
  type: 'User' | 'Bot' | 'Organization';
  /** Global node id. */
  id: string;
  /** REST id. */
  databaseId: number;
  /** Display name (users; null when unset). */
  name: string | null;
  /** Account creation time. */
  createdAt: string;
}

/** A repository label. */
export interface GitHubLabelData {
  id: string;
  name: string;
  description: string | null;
  /** Six hex digits, no `#`. */
  color: string;
  createdAt: string;
}

/** Count of one reaction kind on a comment or item. */
export interface GitHubReactionCount {
  content: GitHubReactionContent;
  count: number;
}

/** What every comment-like record has (issue and pull request comments, reviews, discussion comments). */
export interface GitHubCommentBase {
  id: string;
  databaseId: number;
  /** Author login; null for a deleted account (GitHub's "ghost"). */
  author: string | null;
  authorAssociation: GitHubAuthorAssociation;
  body: string;
  createdAt: string;
  updatedAt: string;
  lastEditedAt: string | null;
  includesCreatedEdit: boolean;
  /** Reactions with a non-zero count. */
  reactions: GitHubReactionCount[];
}

/** A comment on an issue or a pull request's conversation (`IssueComment`). */
export interface GitHubIssueCommentData extends GitHubCommentBase {
  isMinimized: boolean;
  /** GitHub's lower-case reason (`outdated`, `resolved`, `off-topic`, `spam`, `abuse`, `duplicate`); null when not minimized. */
  minimizedReason: string | null;
}

/** An inline comment of a pull request review (`PullRequestReviewComment`). */
export interface GitHubReviewCommentData extends GitHubIssueCommentData {
  path: string;
  line: number | null;
  diffHunk: string;
  outdated: boolean;
  /** Node id of the review comment this one replies to. */
  replyTo: string | null;
}

/** A pull request review (`PullRequestReview`). */
export interface GitHubReviewData extends GitHubCommentBase {
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED' | 'DISMISSED' | 'PENDING';
  submittedAt: string | null;
  /** Commit the review was made on. */
  commitOid: string;
  /** Inline comments of the review. */
  comments: GitHubReviewCommentData[];
}

/** A file changed by a pull request (`PullRequestChangedFile`). */
export interface GitHubChangedFileData {
  path: string;
  additions: number;
  deletions: number;
  changeType: 'ADDED' | 'CHANGED' | 'COPIED' | 'DELETED' | 'MODIFIED' | 'RENAMED';
}

/** Fields issues and pull requests share. */
export interface GitHubIssueLikeData {
  id: string;
  databaseId: number;
  number: number;
  title: string;
  body: string;
  author: string | null;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  lastEditedAt: string | null;
  locked: boolean;
  includesCreatedEdit: boolean;
  /** Label names (each names an entry of the repository's `labels`). */
  labels: string[];
  /** Assignee logins. */
  assignees: string[];
  reactions: GitHubReactionCount[];
  comments: GitHubIssueCommentData[];
}

/** An issue. */
export interface GitHubIssueData extends GitHubIssueLikeData {
  state: 'OPEN' | 'CLOSED';
  stateReason: 'COMPLETED' | 'NOT_PLANNED' | 'REOPENED' | 'DUPLICATE' | null;
}

/** A pull request. */
export interface GitHubPullRequestData extends GitHubIssueLikeData {
  state: 'OPEN' | 'CLOSED' | 'MERGED';
  isDraft: boolean;
  mergedAt: string | null;
  baseRefName: string;
  headRefName: string;
  baseRefOid: string;
  headRefOid: string;
  /** Null when no review is required (what `gh` prints as ""). */
  reviewDecision: 'APPROVED' | 'CHANGES_REQUESTED' | 'REVIEW_REQUIRED' | null;
  /** Number of commits (the `commits` connection's totalCount). */
  commitCount: number;
  reviews: GitHubReviewData[];
  files: GitHubChangedFileData[];
}

/** A comment or reply in a discussion (`DiscussionComment`). */
export interface GitHubDiscussionCommentData extends GitHubIssueCommentData {
  upvoteCount: number;
  /** Replies (only top-level comments have them; GitHub nests one level). */
  replies: GitHubDiscussionCommentData[];
}

/** A discussion category. */
export interface GitHubDiscussionCategoryData {
  id: string;
  name: string;
  slug: string;
  emoji: string;
  description: string | null;
  isAnswerable: boolean;
  createdAt: string;
}

/** A discussion. */
export interface GitHubDiscussionData {
  id: string;
  databaseId: number;
  number: number;
  title: string;
  body: string;
  author: string | null;
  /** Category name (an entry of the repository's `discussionCategories`). */
  category: string;
  createdAt: string;
  updatedAt: string;
  lastEditedAt: string | null;
  closed: boolean;
  closedAt: string | null;
  stateReason: 'DUPLICATE' | 'OUTDATED' | 'REOPENED' | 'RESOLVED' | null;
  locked: boolean;
  includesCreatedEdit: boolean;
  upvoteCount: number;
  /** Node id of the comment marked as the answer. */
  answerId: string | null;
  labels: string[];
  reactions: GitHubReactionCount[];
  comments: GitHubDiscussionCommentData[];
}

/** Where an issue went when it was transferred out of a repository. */
export interface GitHubTransferData {
  /** Number the item had here. */
  number: number;
  owner: string;
  name: string;
  /** Number it has in the destination. */
  newNumber: number;
}

/** Permission the token's user has on a repository (`RepositoryPermission`). */
export type GitHubRepositoryPermission = 'ADMIN' | 'MAINTAIN' | 'WRITE' | 'TRIAGE' | 'READ';

/** One repository with everything the loopback API serves about it. */
export interface GitHubRepositoryData {
  id: string;
  databaseId: number;
  owner: string;
  /** What the owner is (GraphQL `RepositoryOwner` type). */
  ownerType: 'User' | 'Organization';
  name: string;
  description: string | null;
  isPrivate: boolean;
  hasIssuesEnabled: boolean;
  hasDiscussionsEnabled: boolean;
  defaultBranch: string;
  createdAt: string;
  updatedAt: string;
  pushedAt: string;
  /** What the server's token may do here. */
  viewerPermission: GitHubRepositoryPermission;
  /** Authors seen in this repository (merged into the data set's users when added). */
  actors: GitHubActorData[];
  labels: GitHubLabelData[];
  discussionCategories: GitHubDiscussionCategoryData[];
  issues: GitHubIssueData[];
  pullRequests: GitHubPullRequestData[];
  discussions: GitHubDiscussionData[];
  /** Issues transferred away (their old number resolves to the destination's issue). */
  transfers: GitHubTransferData[];
}

/** Kind of a numbered item. */
export type GitHubItemKind = 'issue' | 'pullRequest' | 'discussion';

/** Names one numbered item of a repository. */
export interface GitHubItemRef {
  readonly owner: string;
  readonly name: string;
  readonly kind: GitHubItemKind;
  readonly number: number;
}
