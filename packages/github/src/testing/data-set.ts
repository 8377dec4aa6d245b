// Why: the mutable data behind a loopback GitHub API. Tests add repositories and change items
// between (or during) sync runs the way GitHub would change them: an edit or a new comment bumps the
// item's `updatedAt`, an issue can be deleted or transferred, a comment minimized. The node index
// that `node(id)` needs is rebuilt lazily, so tests may also edit the arrays directly.
import { RepomemError } from '@repomem/core';
import { fakeOid, laterTime, nodeId } from './ids.js';
import type {
  GitHubActorData,
  GitHubDiscussionCommentData,
  GitHubDiscussionData,
  GitHubIssueCommentData,
  GitHubIssueData,
  GitHubItemRef,
  GitHubPullRequestData,
  GitHubRepositoryData,
  GitHubReviewData,
} from './model.js';

/** GraphQL type names of the records the data set indexes by node id. */
export type GitHubNodeType =
  | 'Repository'
  | 'Issue'
  | 'PullRequest'
  | 'Discussion'
  | 'IssueComment'
  | 'PullRequestReview'
  | 'PullRequestReviewComment'
  | 'DiscussionComment'
  | 'Label'
  | 'DiscussionCategory'
  | 'User'
  | 'Bot'
  | 'Organization';

/** A record found by node id, with the records that contain it. */
export interface GitHubNodeEntry {
  readonly type: GitHubNodeType;
  readonly record: object;
  readonly repo: GitHubRepositoryData | undefined;
  /** The issue, pull request or discussion a comment or review belongs to. */
  readonly item: GitHubIssueData | GitHubPullRequestData | GitHubDiscussionData | undefined;
  /** The review of a review comment, or the top-level comment of a discussion reply. */
  readonly parent: GitHubReviewData | GitHubDiscussionCommentData | undefined;
}

/** An issue, pull request or discussion record. */
export type GitHubItemData = GitHubIssueData | GitHubPullRequestData | GitHubDiscussionData;

/** Fields a test may change on an item with {@link GitHubDataSet.updateItem}. */
export type GitHubItemPatch = Partial<
  Pick<GitHubPullRequestData, 'title' | 'body' | 'closedAt' | 'labels' | 'mergedAt' | 'reviewDecision' | 'locked'>
> & { state?: string; category?: string; closed?: boolean };

/** A new comment for {@link GitHubDataSet.addComment}. */
export interface GitHubNewComment {
  readonly author: string;
  readonly body: string;
  /** Node id of a discussion comment this one replies to (discussions only). */
  readonly replyTo?: string;
}

/** A new item for {@link GitHubDataSet.addItem}. */
export interface GitHubNewItem {
  readonly title: string;
  readonly author: string;
  readonly body?: string;
  /** Label names. */
  readonly labels?: readonly string[];
  /** Discussion category name (default: the repository's first category). */
  readonly category?: string;
}

/** A new review for {@link GitHubDataSet.addReview}. */
export interface GitHubNewReview {
  readonly author: string;
  readonly body?: string;
  readonly state?: GitHubReviewData['state'];
}

/** Reasons `minimizedReason` reports (GitHub's lower-case spellings). */
export type GitHubMinimizeReason = 'abuse' | 'off-topic' | 'outdated' | 'resolved' | 'duplicate' | 'spam';

/** Everything a loopback GitHub API serves; mutate it between or during requests. */
export class GitHubDataSet {
  readonly #repos = new Map<string, GitHubRepositoryData>();
  readonly #actors = new Map<string, GitHubActorData>();
  #index: Map<string, GitHubNodeEntry> | undefined;
  #nextDatabaseId = 900_000_000;

  /** Every repository, in the order added. */
  repositories(): GitHubRepositoryData[] {
    return [...this.#repos.values()];
  }

  /** Adds (or replaces) a repository; its actors join the data set's users. */
  addRepository(repo: GitHubRepositoryData): GitHubRepositoryData {
    this.#repos.set(repoKey(repo.owner, repo.name), repo);
    for (const actor of repo.actors) {
      if (!this.#actors.has(actor.login.toLowerCase())) this.#actors.set(actor.login.toLowerCase(), actor);
    }
    this.#index = undefined;
    return repo;
  }

  /** The repository `owner/name` (case-insensitive, as GitHub), or undefined. */
  repository(owner: string, name: string): GitHubRepositoryData | undefined {
    return this.#repos.get(repoKey(owner, name));
  }

  /** Removes a repository (later queries answer NOT_FOUND). */
  removeRepository(owner: string, name: string): boolean {
    this.#index = undefined;
    return this.#repos.delete(repoKey(owner, name));
  }

  /** Adds or replaces a user, bot or organization. */
  addActor(actor: GitHubActorData): GitHubActorData {
    this.#actors.set(actor.login.toLowerCase(), actor);
    this.#index = undefined;
    return actor;
  }

  /** The actor with this login; an unknown login is served as a user with a derived id. */
  actor(login: string): GitHubActorData {
    const known = this.#actors.get(login.toLowerCase());
    if (known !== undefined) return known;
    const made: GitHubActorData = {
      login,
      type: 'User',
      id: nodeId('U', login),
      databaseId: hashNumber(login),
      name: null,
      createdAt: '2020-01-01T00:00:00Z',
    };
    this.#actors.set(login.toLowerCase(), made);
    return made;
  }

  /** The item `ref` names, or undefined when it does not exist (deleted, transferred, never created). */
  item(ref: GitHubItemRef): GitHubItemData | undefined {
    const repo = this.repository(ref.owner, ref.name);
    if (repo === undefined) return undefined;
    const list: readonly GitHubItemData[] = itemList(repo, ref.kind);
    return list.find((item) => item.number === ref.number);
  }

  /** Changes an item and bumps its `updatedAt` (as any edit on GitHub does); returns the item. */
  updateItem(ref: GitHubItemRef, patch: GitHubItemPatch = {}): GitHubItemData {
    const item = this.#require(ref);
    Object.assign(item, patch);
    item.updatedAt = laterTime(item.updatedAt);
    return item;
  }

  /** Adds a comment (or, with `replyTo`, a discussion reply) and bumps the item's `updatedAt`. */
  addComment(ref: GitHubItemRef, comment: GitHubNewComment): GitHubIssueCommentData {
    const item = this.#require(ref);
    const now = laterTime(item.updatedAt);
    const databaseId = this.#nextDatabaseId++;
    const prefix = ref.kind === 'discussion' ? 'DC' : 'IC';
    const made: GitHubDiscussionCommentData = {
      id: nodeId(prefix, `${ref.owner}/${ref.name}#${ref.number}:${databaseId}`),
      databaseId,
      author: comment.author,
      authorAssociation: 'CONTRIBUTOR',
      body: comment.body,
      createdAt: now,
      updatedAt: now,
      lastEditedAt: null,
      includesCreatedEdit: false,
      reactions: [],
      isMinimized: false,
      minimizedReason: null,
      upvoteCount: 0,
      replies: [],
    };
    if (ref.kind === 'discussion') {
      const discussion = item as GitHubDiscussionData;
      if (comment.replyTo !== undefined) {
        const parent = discussion.comments.find((c) => c.id === comment.replyTo);
        if (parent === undefined) {
          throw new RepomemError('NOT_FOUND', `No top-level comment ${comment.replyTo} in discussion #${ref.number}.`);
        }
        parent.replies.push(made);
      } else {
        discussion.comments.push(made);
      }
    } else {
      const { upvoteCount: _u, replies: _r, ...plain } = made;
      (item as GitHubIssueData).comments.push(plain);
    }
    item.updatedAt = now;
    this.#index = undefined;
    return made;
  }

  /**
   * Opens a new issue, pull request or discussion (created and updated now, next number; issues
   * and pull requests share a counter, as on GitHub) and returns it.
   */
  addItem(owner: string, name: string, kind: GitHubItemRef['kind'], item: GitHubNewItem): GitHubItemData {
    const repo = this.#requireRepo(owner, name);
    const now = laterTime('1970-01-01T00:00:00Z');
    const number = kind === 'discussion' ? Math.max(0, ...repo.discussions.map((d) => d.number)) + 1 : nextNumber(repo);
    const key = `${owner}/${name}#${kind}-${number}`;
    const common = {
      databaseId: this.#nextDatabaseId++,
      number,
      title: item.title,
      body: item.body ?? '',
      author: item.author,
      createdAt: now,
      updatedAt: now,
      closedAt: null,
      lastEditedAt: null,
      locked: false,
      includesCreatedEdit: false,
      labels: [...(item.labels ?? [])],
      reactions: [],
    };
    let made: GitHubItemData;
    if (kind === 'issue') {
      made = { ...common, id: nodeId('I', key), assignees: [], comments: [], state: 'OPEN', stateReason: null };
      repo.issues.push(made);
    } else if (kind === 'pullRequest') {
      made = {
        ...common,
        id: nodeId('PR', key),
        assignees: [],
        comments: [],
        state: 'OPEN',
        isDraft: false,
        mergedAt: null,
        baseRefName: repo.defaultBranch,
        headRefName: `change-${number}`,
        baseRefOid: fakeOid(`${key}:base`),
        headRefOid: fakeOid(`${key}:head`),
        reviewDecision: null,
        commitCount: 1,
        reviews: [],
        files: [],
      };
      repo.pullRequests.push(made);
    } else {
      made = {
        ...common,
        id: nodeId('D', key),
        category: item.category ?? repo.discussionCategories[0]?.name ?? 'General',
        closed: false,
        stateReason: null,
        upvoteCount: 0,
        answerId: null,
        comments: [],
      };
      repo.discussions.push(made);
    }
    this.#index = undefined;
    return made;
  }

  /** Submits a review on a pull request and bumps its `updatedAt`. */
  addReview(ref: GitHubItemRef, review: GitHubNewReview): GitHubReviewData {
    if (ref.kind !== 'pullRequest') throw new RepomemError('INVALID_ARGUMENT', 'Only pull requests have reviews.');
    const pull = this.#require(ref) as GitHubPullRequestData;
    const now = laterTime(pull.updatedAt);
    const databaseId = this.#nextDatabaseId++;
    const made: GitHubReviewData = {
      id: nodeId('PRR', `${ref.owner}/${ref.name}#${ref.number}:${databaseId}`),
      databaseId,
      author: review.author,
      authorAssociation: 'CONTRIBUTOR',
      body: review.body ?? '',
      createdAt: now,
      updatedAt: now,
      lastEditedAt: null,
      includesCreatedEdit: false,
      reactions: [],
      state: review.state ?? 'COMMENTED',
      submittedAt: now,
      commitOid: pull.headRefOid,
      comments: [],
    };
    pull.reviews.push(made);
    pull.updatedAt = now;
    this.#index = undefined;
    return made;
  }

  /** Deletes an item (GraphQL then answers NOT_FOUND for its number). */
  deleteItem(ref: GitHubItemRef): void {
    const repo = this.#requireRepo(ref.owner, ref.name);
    const list: GitHubItemData[] = itemList(repo, ref.kind);
    const at = list.findIndex((item) => item.number === ref.number);
    if (at < 0) throw new RepomemError('NOT_FOUND', `${describe(ref)} does not exist.`);
    list.splice(at, 1);
    this.#index = undefined;
  }

  /**
   * Transfers an issue to another repository (which must exist): it gets the destination's next
   * number and a bumped `updatedAt`; its old number resolves to it, as GitHub redirects.
   */
  transferIssue(ref: GitHubItemRef, to: { readonly owner: string; readonly name: string }): GitHubIssueData {
    if (ref.kind !== 'issue') throw new RepomemError('INVALID_ARGUMENT', 'Only issues can be transferred.');
    const from = this.#requireRepo(ref.owner, ref.name);
    const dest = this.#requireRepo(to.owner, to.name);
    const at = from.issues.findIndex((issue) => issue.number === ref.number);
    const issue = from.issues[at];
    if (issue === undefined) throw new RepomemError('NOT_FOUND', `${describe(ref)} does not exist.`);
    from.issues.splice(at, 1);
    const newNumber = nextNumber(dest);
    issue.number = newNumber;
    issue.updatedAt = laterTime(issue.updatedAt);
    dest.issues.push(issue);
    from.transfers.push({ number: ref.number, owner: dest.owner, name: dest.name, newNumber });
    this.#index = undefined;
    return issue;
  }

  /**
   * Minimizes (hides) a comment. With `bumpItem` (default true) the item's `updatedAt` moves too,
   * so an incremental sync sees the change.
   */
  minimizeComment(commentId: string, reason: GitHubMinimizeReason, options: { bumpItem?: boolean } = {}): void {
    const entry = this.node(commentId);
    if (entry === undefined || !('isMinimized' in entry.record)) {
      throw new RepomemError('NOT_FOUND', `No comment with node id ${commentId}.`);
    }
    const comment = entry.record as GitHubIssueCommentData;
    comment.isMinimized = true;
    comment.minimizedReason = reason;
    comment.updatedAt = laterTime(comment.updatedAt);
    if (options.bumpItem !== false && entry.item !== undefined) entry.item.updatedAt = laterTime(entry.item.updatedAt);
  }

  /** The record with this global node id, with its containers; undefined when none. */
  node(id: string): GitHubNodeEntry | undefined {
    const hit = this.#ensureIndex().get(id);
    if (hit !== undefined && stillPresent(hit, this)) return hit;
    this.#index = undefined;
    return this.#ensureIndex().get(id);
  }

  /** The next issue/pull request number of a repository (they share one counter, as on GitHub). */
  nextNumber(owner: string, name: string): number {
    return nextNumber(this.#requireRepo(owner, name));
  }

  #require(ref: GitHubItemRef): GitHubItemData {
    const item = this.item(ref);
    if (item === undefined) throw new RepomemError('NOT_FOUND', `${describe(ref)} does not exist.`);
    return item;
  }

  #requireRepo(owner: string, name: string): GitHubRepositoryData {
    const repo = this.repository(owner, name);
    if (repo === undefined) throw new RepomemError('NOT_FOUND', `Repository ${owner}/${name} does not exist.`);
    return repo;
  }

  #ensureIndex(): Map<string, GitHubNodeEntry> {
    if (this.#index !== undefined) return this.#index;
    const index = new Map<string, GitHubNodeEntry>();
    const add = (
      type: GitHubNodeType,
      record: { id: string },
      repo?: GitHubRepositoryData,
      item?: GitHubItemData,
      parent?: GitHubReviewData | GitHubDiscussionCommentData,
    ) => index.set(record.id, { type, record, repo, item, parent });
    for (const actor of this.#actors.values()) add(actor.type, actor);
    for (const repo of this.#repos.values()) {
      add('Repository', repo, repo);
      for (const label of repo.labels) add('Label', label, repo);
      for (const category of repo.discussionCategories) add('DiscussionCategory', category, repo);
      for (const issue of repo.issues) {
        add('Issue', issue, repo);
        for (const comment of issue.comments) add('IssueComment', comment, repo, issue);
      }
      for (const pull of repo.pullRequests) {
        add('PullRequest', pull, repo);
        for (const comment of pull.comments) add('IssueComment', comment, repo, pull);
        for (const review of pull.reviews) {
          add('PullRequestReview', review, repo, pull);
          for (const comment of review.comments) add('PullRequestReviewComment', comment, repo, pull, review);
        }
      }
      for (const discussion of repo.discussions) {
        add('Discussion', discussion, repo);
        for (const comment of discussion.comments) {
          add('DiscussionComment', comment, repo, discussion);
          for (const reply of comment.replies) add('DiscussionComment', reply, repo, discussion, comment);
        }
      }
    }
    this.#index = index;
    return index;
  }
}

/** The issues, pull requests or discussions of a repository. */
export function itemList(repo: GitHubRepositoryData, kind: GitHubItemRef['kind']): GitHubItemData[] {
  if (kind === 'issue') return repo.issues;
  if (kind === 'pullRequest') return repo.pullRequests;
  return repo.discussions;
}

function stillPresent(entry: GitHubNodeEntry, data: GitHubDataSet): boolean {
  const { repo, item, parent, record } = entry;
  if (repo === undefined) return true;
  if (data.repository(repo.owner, repo.name) !== repo) return false;
  if (item === undefined) return true;
  const kind = 'category' in item ? 'discussion' : 'reviews' in item ? 'pullRequest' : 'issue';
  if (!(itemList(repo, kind) as object[]).includes(item)) return false;
  if (record === item) return true;
  if (parent !== undefined) {
    const siblings: readonly object[] = 'replies' in parent ? parent.replies : (parent as GitHubReviewData).comments;
    return siblings.includes(record);
  }
  const pull = item as GitHubPullRequestData;
  return (
    (item.comments as readonly object[]).includes(record) || pull.reviews?.includes(record as GitHubReviewData) === true
  );
}

function nextNumber(repo: GitHubRepositoryData): number {
  let max = 0;
  for (const item of [...repo.issues, ...repo.pullRequests]) max = Math.max(max, item.number);
  for (const transfer of repo.transfers) max = Math.max(max, transfer.number);
  return max + 1;
}

function repoKey(owner: string, name: string): string {
  return `${owner}/${name}`.toLowerCase();
}

function describe(ref: GitHubItemRef): string {
  return `${ref.kind} #${ref.number} of ${ref.owner}/${ref.name}`;
}

function hashNumber(text: string): number {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return (h % 90_000_000) + 10_000_000;
}
