// Why: a record served as a GraphQL object needs its GraphQL type and its containers (a comment's
// URL needs its repository and item). A view pairs them without copying or mutating the record;
// plain objects (page info, reaction groups, changed files) are served as they are.
import type { GitHubItemData, GitHubNodeEntry, GitHubNodeType } from './data-set.js';
import type { GitHubDiscussionCommentData, GitHubRepositoryData, GitHubReviewData } from './model.js';

/** A record as a GraphQL object of `type`, with the records that contain it. */
export class View {
  constructor(
    readonly type: GitHubNodeType | 'Ref' | 'Commit' | 'PullRequestCommit',
    readonly record: object,
    readonly repo?: GitHubRepositoryData,
    readonly item?: GitHubItemData,
    readonly parent?: GitHubReviewData | GitHubDiscussionCommentData,
  ) {}

  /** The view of an index entry. */
  static of(entry: GitHubNodeEntry): View {
    return new View(entry.type, entry.record, entry.repo, entry.item, entry.parent);
  }

  /** A field of the record (undefined when it has none). */
  field(name: string): unknown {
    return (this.record as Record<string, unknown>)[name];
  }
}
