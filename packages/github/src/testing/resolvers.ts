// Why: maps GitHub's GraphQL fields onto the in-memory model. Scalars with GitHub's names are read
// straight from the records; this module holds only what needs computing: relations (actors,
// labels, parents), connections with GitHub's filters and orderings, URLs, and the lookups that
// answer NOT_FOUND like GitHub. A field the model cannot answer is an explicit error naming it,
// never a silent null, so a sync asking for something new finds out at once.
import { GraphQLError, type GraphQLFieldResolver, type GraphQLTypeResolver } from 'graphql';
import { type ConnectionArgs, paginate, type SortKey } from './connection.js';
import { type GitHubDataSet, type GitHubItemData, itemList } from './data-set.js';
import { nodeId } from './ids.js';
import {
  type GitHubActorData,
  type GitHubCommentBase,
  type GitHubDiscussionCommentData,
  type GitHubDiscussionData,
  type GitHubIssueCommentData,
  type GitHubIssueLikeData,
  type GitHubPullRequestData,
  type GitHubRepositoryData,
  type GitHubReviewData,
  REACTION_CONTENTS,
} from './model.js';
import { SEARCH_RESULT_CAP, searchItems } from './search.js';
import { canSee, type LoopbackPermissionName, requirePermission, type TokenGrant } from './token-grants.js';
import { View } from './views.js';

/** GitHub's web origin, used for every `url`. */
export const WEB_ORIGIN = 'https://github.com';

/** The rate-limit figures `rateLimit { ... }` reports for the current query. */
export interface RateLimitView {
  readonly cost: number;
  readonly limit: number;
  readonly nodeCount: number;
  readonly remaining: number;
  readonly resetAt: string;
  readonly used: number;
}

/** What resolvers see of the request. */
export interface ResolverContext {
  readonly data: GitHubDataSet;
  /** Login of the token's user (`viewer`, `viewerDidAuthor`). */
  readonly viewer: string;
  /** What the token may see and read. */
  readonly grant: TokenGrant;
  readonly rateLimit: RateLimitView;
}

type Args = Readonly<Record<string, unknown>>;
type Resolver = (source: View, args: Args, context: ResolverContext) => unknown;

/** Resolves a field: a computed one from the table below, else the record's own value. */
export const fieldResolver: GraphQLFieldResolver<unknown, ResolverContext> = (source, args, context, info) => {
  const typeName = info.parentType.name;
  const computed = RESOLVERS[typeName]?.[info.fieldName];
  if (computed !== undefined) return computed(source as View, args, context);
  const value =
    source instanceof View ? source.field(info.fieldName) : (source as Record<string, unknown>)[info.fieldName];
  if (value === undefined) {
    throw new GraphQLError(`The loopback GitHub API does not serve ${typeName}.${info.fieldName} yet.`, {
      extensions: { type: 'LOOPBACK_UNSUPPORTED' },
    });
  }
  return value;
};

/** Names the GraphQL type of an abstract value (Node, Actor, RepositoryOwner, unions). */
export const typeResolver: GraphQLTypeResolver<unknown, ResolverContext> = (value) =>
  value instanceof View ? value.type : (value as { __typename?: string }).__typename;

function notFound(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { type: 'NOT_FOUND' } });
}

/** The author as GraphQL serves it; null for a deleted account (GitHub shows those as "ghost" on the web). */
function actorView(context: ResolverContext, login: string | null): View | null {
  if (login === null) return null;
  const actor: GitHubActorData = context.data.actor(login);
  return new View(actor.type, actor);
}

function repoView(repo: GitHubRepositoryData): View {
  return new View('Repository', repo, repo);
}

function itemView(repo: GitHubRepositoryData, item: GitHubItemData): View {
  const type = 'category' in item ? 'Discussion' : 'reviews' in item ? 'PullRequest' : 'Issue';
  return new View(type, item, repo);
}

function itemUrl(view: View): string {
  const repo = view.repo!;
  const item = (view.item ?? view.record) as GitHubItemData;
  const kind = 'category' in item ? 'discussions' : 'reviews' in item ? 'pull' : 'issues';
  return `${WEB_ORIGIN}/${repo.owner}/${repo.name}/${kind}/${item.number}`;
}

function connectionArgs(args: Args): ConnectionArgs {
  return {
    first: args.first as number | null | undefined,
    last: args.last as number | null | undefined,
    after: args.after as string | null | undefined,
    before: args.before as string | null | undefined,
  };
}

interface Order {
  readonly field?: string;
  readonly direction?: 'ASC' | 'DESC';
}

/** Numbered items ordered as `orderBy` asks (default: creation order, ascending). */
function orderedKey(order: Order | undefined, fallbackField: string): (item: GitHubItemData) => SortKey {
  const field = order?.field ?? fallbackField;
  if (field === 'UPDATED_AT') return (item) => [item.updatedAt, item.number];
  if (field === 'COMMENTS') return (item) => [item.comments.length, item.number];
  return (item) => [item.createdAt, item.number];
}

function commentKey(comment: GitHubCommentBase): SortKey {
  return [comment.createdAt, comment.databaseId];
}

function reactionGroups(view: View): unknown[] {
  const reactions = (view.record as GitHubCommentBase).reactions ?? [];
  return REACTION_CONTENTS.map((content) => {
    const count = reactions.find((reaction) => reaction.content === content)?.count ?? 0;
    const users = { totalCount: count, nodes: [], edges: [], pageInfo: emptyPageInfo() };
    return { content, createdAt: null, users, reactors: users, viewerHasReacted: false };
  });
}

function emptyPageInfo() {
  return { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null };
}

function hasLabels(item: GitHubIssueLikeData | GitHubDiscussionData, names: unknown): boolean {
  if (!Array.isArray(names) || names.length === 0) return true;
  return names.some((name) => item.labels.some((label) => label.toLowerCase() === String(name).toLowerCase()));
}

function labelsConnection(view: View, args: Args): unknown {
  const repo = view.repo!;
  const names = (view.record as { labels: string[] }).labels;
  const labels = names.map(
    (name) =>
      repo.labels.find((label) => label.name === name) ?? {
        id: nodeId('LA', `${repo.owner}/${repo.name}:${name}`),
        name,
        description: null,
        color: 'ededed',
        createdAt: repo.createdAt,
      },
  );
  // Labels keep the order they were applied in, as GitHub lists them.
  const views = labels.map((label) => new View('Label', label, repo));
  return paginate(views, connectionArgs(args), (label) => [views.indexOf(label)]);
}

function commentsConnection(view: View, args: Args, type: 'IssueComment' | 'DiscussionComment'): unknown {
  const item = view.record as GitHubIssueLikeData | GitHubDiscussionData;
  const comments = item.comments as GitHubIssueCommentData[];
  const order = args.orderBy as Order | undefined;
  const key =
    order?.field === 'UPDATED_AT'
      ? (c: View) => [(c.record as GitHubCommentBase).updatedAt, (c.record as GitHubCommentBase).databaseId]
      : (c: View) => commentKey(c.record as GitHubCommentBase);
  const views = comments.map((comment) => new View(type, comment, view.repo, item as GitHubItemData));
  return paginate(views, connectionArgs(args), key, order?.direction === 'DESC');
}

const commentFields: Record<string, Resolver> = {
  author: (view, _args, context) => actorView(context, (view.record as GitHubCommentBase).author),
  editor: () => null,
  bodyText: (view) => (view.record as GitHubCommentBase).body,
  bodyHTML: (view) => `<p>${escapeHtml((view.record as GitHubCommentBase).body)}</p>`,
  fullDatabaseId: (view) => String((view.record as GitHubCommentBase).databaseId),
  reactionGroups,
  reactions: (view) => {
    const total = reactionGroups(view).reduce(
      (sum: number, group) => sum + (group as { users: { totalCount: number } }).users.totalCount,
      0,
    );
    return { totalCount: total, nodes: [], edges: [], pageInfo: emptyPageInfo(), viewerHasReacted: false };
  },
  viewerDidAuthor: (view, _args, context) => (view.record as GitHubCommentBase).author === context.viewer,
  viewerCanUpdate: () => false,
  viewerCanDelete: () => false,
  viewerCanReact: () => true,
  viewerCanMinimize: () => false,
  publishedAt: (view) => (view.record as GitHubCommentBase).createdAt,
  repository: (view) => repoView(view.repo!),
  deletedAt: () => null,
};

const itemFields: Record<string, Resolver> = {
  author: (view, _args, context) => actorView(context, (view.record as GitHubIssueLikeData).author),
  authorAssociation: (view) =>
    (view.record as GitHubIssueLikeData).author === view.repo!.owner ? 'OWNER' : 'CONTRIBUTOR',
  editor: () => null,
  bodyText: (view) => (view.record as GitHubIssueLikeData).body,
  bodyHTML: (view) => `<p>${escapeHtml((view.record as GitHubIssueLikeData).body)}</p>`,
  fullDatabaseId: (view) => String((view.record as GitHubIssueLikeData).databaseId),
  url: (view) => itemUrl(view),
  permalink: (view) => itemUrl(view),
  resourcePath: (view) => new URL(itemUrl(view)).pathname,
  repository: (view) => repoView(view.repo!),
  labels: labelsConnection,
  assignees: (view, args, context) => {
    const logins = (view.record as GitHubIssueLikeData).assignees;
    const actors = logins.map((login) => actorView(context, login)!);
    return paginate(actors, connectionArgs(args), (actor) => [(actor.record as GitHubActorData).login]);
  },
  comments: (view, args) => commentsConnection(view, args, 'IssueComment'),
  reactionGroups,
  reactions: commentFields.reactions!,
  closed: (view) => (view.record as { state: string }).state !== 'OPEN',
  viewerDidAuthor: (view, _args, context) => (view.record as GitHubIssueLikeData).author === context.viewer,
  viewerCanUpdate: () => false,
  viewerCanReact: () => true,
  activeLockReason: () => null,
  milestone: () => null,
  publishedAt: (view) => (view.record as GitHubIssueLikeData).createdAt,
  title: (view) => (view.record as GitHubIssueLikeData).title,
  titleHTML: (view) => escapeHtml((view.record as GitHubIssueLikeData).title),
};

const actorFields: Record<string, Resolver> = {
  url: (view) => {
    const actor = view.record as GitHubActorData;
    return actor.type === 'Bot' ? `${WEB_ORIGIN}/apps/${actor.login}` : `${WEB_ORIGIN}/${actor.login}`;
  },
  resourcePath: (view) => `/${(view.record as GitHubActorData).login}`,
  avatarUrl: (view) => `https://avatars.githubusercontent.com/u/${(view.record as GitHubActorData).databaseId}?v=4`,
  updatedAt: (view) => (view.record as GitHubActorData).createdAt,
  isViewer: (view, _args, context) => (view.record as GitHubActorData).login === context.viewer,
};

const RESOLVERS: Record<string, Record<string, Resolver>> = {
  Query: {
    repository: (_view, args, context) => {
      const repo = context.data.repository(String(args.owner), String(args.name));
      if (repo === undefined || !canSee(context.grant, repo.owner, repo.name))
        throw notFound(`Could not resolve to a Repository with the name '${args.owner}/${args.name}'.`);
      return repoView(repo);
    },
    viewer: (_view, _args, context) => actorView(context, context.viewer),
    user: (_view, args, context) => {
      const actor = context.data.actor(String(args.login));
      if (actor.type !== 'User') throw notFound(`Could not resolve to a User with the login of '${args.login}'.`);
      return new View('User', actor);
    },
    organization: (_view, args, context) => {
      const actor = context.data.actor(String(args.login));
      if (actor.type !== 'Organization') {
        throw notFound(`Could not resolve to an Organization with the login of '${args.login}'.`);
      }
      return new View('Organization', actor);
    },
    repositoryOwner: (_view, args, context) => actorView(context, String(args.login)),
    node: (_view, args, context) => visibleNode(context, String(args.id)),
    nodes: (_view, args, context) =>
      (args.ids as string[]).map((id) => {
        try {
          return visibleNode(context, id);
        } catch (error) {
          return error as GraphQLError;
        }
      }),
    rateLimit: (_view, _args, context) => context.rateLimit,
    search: (_view, args, context) => {
      const type = String(args.type);
      const hits = searchItems(
        context.data,
        type,
        String(args.query),
        (repo, kind) =>
          canSee(context.grant, repo.owner, repo.name) &&
          context.grant.permissions[PERMISSION_OF_KIND[kind]] === 'read',
      );
      // GitHub pages through the first 1,000 results, positioned by offset, and counts them all.
      const views = hits.slice(0, SEARCH_RESULT_CAP).map((hit) => itemView(hit.repo, hit.item));
      const page = paginate(views, connectionArgs(args), (view) => [views.indexOf(view)]);
      const count = hits.length;
      return {
        ...page,
        issueCount: type === 'DISCUSSION' ? 0 : count,
        discussionCount: type === 'DISCUSSION' ? count : 0,
        codeCount: 0,
        repositoryCount: 0,
        userCount: 0,
        wikiCount: 0,
      };
    },
  },
  Repository: {
    owner: (view, _args, context) => {
      const repo = view.record as GitHubRepositoryData;
      const actor = context.data.actor(repo.owner);
      return new View(repo.ownerType, { ...actor, type: repo.ownerType });
    },
    nameWithOwner: (view) => `${view.repo!.owner}/${view.repo!.name}`,
    url: (view) => `${WEB_ORIGIN}/${view.repo!.owner}/${view.repo!.name}`,
    resourcePath: (view) => `/${view.repo!.owner}/${view.repo!.name}`,
    visibility: (view) => (view.repo!.isPrivate ? 'PRIVATE' : 'PUBLIC'),
    isArchived: () => false,
    isFork: () => false,
    isDisabled: () => false,
    isLocked: () => false,
    isTemplate: () => false,
    isEmpty: () => false,
    stargazerCount: () => 0,
    forkCount: () => 0,
    defaultBranchRef: (view) =>
      new View('Ref', {
        id: nodeId('REF', `${view.repo!.owner}/${view.repo!.name}:${view.repo!.defaultBranch}`),
        name: view.repo!.defaultBranch,
        prefix: 'refs/heads/',
      }),
    issues: (view, args, context) => {
      requirePermission(context.grant, 'issues');
      const repo = view.repo!;
      const filterBy = (args.filterBy ?? {}) as Record<string, unknown>;
      const since = filterBy.since as string | null | undefined;
      const states = (args.states ?? filterBy.states) as string[] | null | undefined;
      const createdBy = filterBy.createdBy as string | null | undefined;
      const assignee = filterBy.assignee as string | null | undefined;
      for (const unsupported of ['mentioned', 'milestone', 'milestoneNumber', 'viewerSubscribed']) {
        if (filterBy[unsupported] != null && filterBy[unsupported] !== false) {
          throw new GraphQLError(`The loopback GitHub API does not filter issues by ${unsupported} yet.`, {
            extensions: { type: 'LOOPBACK_UNSUPPORTED' },
          });
        }
      }
      const sinceTime = since == null ? undefined : Date.parse(since);
      const issues = repo.issues.filter(
        (issue) =>
          (sinceTime === undefined || Date.parse(issue.updatedAt) >= sinceTime) &&
          (states == null || states.length === 0 || states.includes(issue.state)) &&
          (createdBy == null || issue.author === createdBy) &&
          (assignee == null || issue.assignees.includes(assignee)) &&
          hasLabels(issue, args.labels ?? filterBy.labels),
      );
      const order = args.orderBy as Order | undefined;
      return paginate(
        issues.map((issue) => itemView(repo, issue)),
        connectionArgs(args),
        (v) => orderedKey(order, 'CREATED_AT')(v.record as GitHubItemData),
        order?.direction === 'DESC',
      );
    },
    pullRequests: (view, args, context) => {
      requirePermission(context.grant, 'pullRequests');
      const repo = view.repo!;
      const states = args.states as string[] | undefined | null;
      const pulls = repo.pullRequests.filter(
        (pull) =>
          (states == null || states.length === 0 || states.includes(pull.state)) &&
          (args.baseRefName == null || pull.baseRefName === args.baseRefName) &&
          (args.headRefName == null || pull.headRefName === args.headRefName) &&
          hasLabels(pull, args.labels),
      );
      const order = args.orderBy as Order | undefined;
      return paginate(
        pulls.map((pull) => itemView(repo, pull)),
        connectionArgs(args),
        (v) => orderedKey(order, 'CREATED_AT')(v.record as GitHubItemData),
        order?.direction === 'DESC',
      );
    },
    discussions: (view, args, context) => {
      requirePermission(context.grant, 'discussions');
      const repo = view.repo!;
      const states = args.states as string[] | undefined | null;
      const category =
        args.categoryId == null ? undefined : repo.discussionCategories.find((c) => c.id === args.categoryId);
      const discussions = repo.hasDiscussionsEnabled
        ? repo.discussions.filter(
            (discussion) =>
              (states == null || states.length === 0 || states.includes(discussion.closed ? 'CLOSED' : 'OPEN')) &&
              (args.categoryId == null || discussion.category === category?.name) &&
              (args.answered == null || (discussion.answerId !== null) === args.answered),
          )
        : [];
      const order = (args.orderBy ?? { field: 'UPDATED_AT', direction: 'DESC' }) as Order;
      return paginate(
        discussions.map((discussion) => itemView(repo, discussion)),
        connectionArgs(args),
        (v) => orderedKey(order, 'UPDATED_AT')(v.record as GitHubItemData),
        order.direction === 'DESC',
      );
    },
    issue: (view, args, context) => numbered(context, view.repo!, 'issue', Number(args.number)),
    pullRequest: (view, args, context) => numbered(context, view.repo!, 'pullRequest', Number(args.number)),
    discussion: (view, args, context) => numbered(context, view.repo!, 'discussion', Number(args.number)),
    issueOrPullRequest: (view, args, context) => {
      const repo = view.repo!;
      const number = Number(args.number);
      if (repo.pullRequests.some((pull) => pull.number === number))
        return numbered(context, repo, 'pullRequest', number);
      return numbered(context, repo, 'issue', number);
    },
    labels: (view, args) => {
      const repo = view.repo!;
      const views = repo.labels.map((label) => new View('Label', label, repo));
      return paginate(views, connectionArgs(args), (label) => [(label.record as { name: string }).name]);
    },
    label: (view, args) => {
      const label = view.repo!.labels.find((l) => l.name.toLowerCase() === String(args.name).toLowerCase());
      return label === undefined ? null : new View('Label', label, view.repo);
    },
    discussionCategories: (view, args) => {
      const repo = view.repo!;
      const views = repo.discussionCategories.map((category) => new View('DiscussionCategory', category, repo));
      return paginate(views, connectionArgs(args), (category) => [
        (category.record as { createdAt: string }).createdAt,
        (category.record as { name: string }).name,
      ]);
    },
  },
  Issue: { ...itemFields },
  PullRequest: {
    ...itemFields,
    merged: (view) => (view.record as GitHubPullRequestData).mergedAt !== null,
    additions: (view) => (view.record as GitHubPullRequestData).files.reduce((sum, file) => sum + file.additions, 0),
    deletions: (view) => (view.record as GitHubPullRequestData).files.reduce((sum, file) => sum + file.deletions, 0),
    changedFiles: (view) => (view.record as GitHubPullRequestData).files.length,
    mergeable: () => 'UNKNOWN',
    isCrossRepository: () => false,
    baseRepository: (view) => repoView(view.repo!),
    headRepository: (view) => repoView(view.repo!),
    reviews: (view, args) => {
      const pull = view.record as GitHubPullRequestData;
      const states = args.states as string[] | undefined | null;
      const reviews = pull.reviews.filter(
        (review) =>
          (states == null || states.length === 0 || states.includes(review.state)) &&
          (args.author == null || review.author === args.author),
      );
      const views = reviews.map((review) => new View('PullRequestReview', review, view.repo, pull));
      return paginate(views, connectionArgs(args), (v) => commentKey(v.record as GitHubReviewData));
    },
    files: (view, args) => {
      const pull = view.record as GitHubPullRequestData;
      return paginate(pull.files, connectionArgs(args), (file) => [pull.files.indexOf(file)]);
    },
    commits: (view, args) => {
      const pull = view.record as GitHubPullRequestData;
      const commits = Array.from({ length: pull.commitCount }, (_, i) => {
        const oid = i === pull.commitCount - 1 ? pull.headRefOid : nodeId('C', `${pull.id}:${i}`).slice(0, 40);
        return new View('PullRequestCommit', {
          id: nodeId('PURC', `${pull.id}:${i}`),
          commit: new View('Commit', { id: nodeId('C', oid), oid, abbreviatedOid: oid.slice(0, 7) }),
          url: `${itemUrl(view)}/commits/${oid}`,
          resourcePath: '',
        });
      });
      return paginate(commits, connectionArgs(args), (_commit) => [commits.indexOf(_commit)]);
    },
  },
  IssueComment: {
    ...commentFields,
    url: (view) => `${itemUrl(view)}#issuecomment-${(view.record as GitHubCommentBase).databaseId}`,
    resourcePath: (view) =>
      `${new URL(itemUrl(view)).pathname}#issuecomment-${(view.record as GitHubCommentBase).databaseId}`,
    issue: (view) => itemView(view.repo!, view.item!),
    pullRequest: (view) => ('reviews' in view.item! ? itemView(view.repo!, view.item) : null),
  },
  PullRequestReview: {
    ...commentFields,
    url: (view) => `${itemUrl(view)}#pullrequestreview-${(view.record as GitHubReviewData).databaseId}`,
    resourcePath: (view) =>
      `${new URL(itemUrl(view)).pathname}#pullrequestreview-${(view.record as GitHubReviewData).databaseId}`,
    commit: (view) => {
      const oid = (view.record as GitHubReviewData).commitOid;
      return new View('Commit', { id: nodeId('C', oid), oid, abbreviatedOid: oid.slice(0, 7) });
    },
    pullRequest: (view) => itemView(view.repo!, view.item!),
    comments: (view, args) => {
      const review = view.record as GitHubReviewData;
      const views = review.comments.map(
        (comment) => new View('PullRequestReviewComment', comment, view.repo, view.item, review),
      );
      return paginate(views, connectionArgs(args), (v) => commentKey(v.record as GitHubCommentBase));
    },
  },
  PullRequestReviewComment: {
    ...commentFields,
    url: (view) => `${itemUrl(view)}#discussion_r${(view.record as GitHubCommentBase).databaseId}`,
    pullRequest: (view) => itemView(view.repo!, view.item!),
    pullRequestReview: (view) =>
      view.parent === undefined ? null : new View('PullRequestReview', view.parent, view.repo, view.item),
    replyTo: (view, _args, context) => {
      const replyTo = (view.record as { replyTo: string | null }).replyTo;
      const entry = replyTo === null ? undefined : context.data.node(replyTo);
      return entry === undefined ? null : View.of(entry);
    },
  },
  Discussion: {
    ...itemFields,
    url: (view) => itemUrl(view),
    category: (view) => {
      const repo = view.repo!;
      const name = (view.record as GitHubDiscussionData).category;
      const category = repo.discussionCategories.find((c) => c.name === name) ?? {
        id: nodeId('DIC', `${repo.owner}/${repo.name}:${name}`),
        name,
        slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        emoji: ':speech_balloon:',
        description: null,
        isAnswerable: false,
        createdAt: repo.createdAt,
      };
      return new View('DiscussionCategory', category, repo);
    },
    comments: (view, args) => commentsConnection(view, args, 'DiscussionComment'),
    answer: (view, _args, context) => {
      const answerId = (view.record as GitHubDiscussionData).answerId;
      const entry = answerId === null ? undefined : context.data.node(answerId);
      return entry === undefined ? null : View.of(entry);
    },
    isAnswered: (view) => (view.record as GitHubDiscussionData).answerId !== null,
    answerChosenAt: () => null,
    answerChosenBy: () => null,
    closed: (view) => (view.record as GitHubDiscussionData).closed,
    viewerHasUpvoted: () => false,
  },
  DiscussionComment: {
    ...commentFields,
    url: (view) => `${itemUrl(view)}#discussioncomment-${(view.record as GitHubCommentBase).databaseId}`,
    resourcePath: (view) =>
      `${new URL(itemUrl(view)).pathname}#discussioncomment-${(view.record as GitHubCommentBase).databaseId}`,
    discussion: (view) => itemView(view.repo!, view.item!),
    replies: (view, args) => {
      const comment = view.record as GitHubDiscussionCommentData;
      const views = comment.replies.map((reply) => new View('DiscussionComment', reply, view.repo, view.item, comment));
      return paginate(views, connectionArgs(args), (v) => commentKey(v.record as GitHubCommentBase));
    },
    replyTo: (view) =>
      view.parent === undefined ? null : new View('DiscussionComment', view.parent, view.repo, view.item),
    isAnswer: (view) =>
      (view.item as GitHubDiscussionData).answerId === (view.record as GitHubDiscussionCommentData).id,
    viewerCanMarkAsAnswer: () => false,
    viewerCanUnmarkAsAnswer: () => false,
    viewerHasUpvoted: () => false,
  },
  DiscussionCategory: {
    emojiHTML: (view) => `<div>${(view.record as { emoji: string }).emoji}</div>`,
    updatedAt: (view) => (view.record as { createdAt: string }).createdAt,
    repository: (view) => repoView(view.repo!),
  },
  Label: {
    isDefault: () => false,
    updatedAt: (view) => (view.record as { createdAt: string }).createdAt,
    url: (view) =>
      `${WEB_ORIGIN}/${view.repo!.owner}/${view.repo!.name}/labels/${encodeURIComponent((view.record as { name: string }).name)}`,
    resourcePath: (view) =>
      `/${view.repo!.owner}/${view.repo!.name}/labels/${encodeURIComponent((view.record as { name: string }).name)}`,
    repository: (view) => repoView(view.repo!),
  },
  User: { ...actorFields },
  Bot: { ...actorFields },
  Organization: { ...actorFields, name: (view) => (view.record as GitHubActorData).name },
};

const PERMISSION_OF_KIND: Record<'issue' | 'pullRequest' | 'discussion', LoopbackPermissionName> = {
  issue: 'issues',
  pullRequest: 'pullRequests',
  discussion: 'discussions',
};

/** A node the token may see: NOT_FOUND when it does not exist or sits in a hidden repository, FORBIDDEN without its permission. */
function visibleNode(context: ResolverContext, id: string): View {
  const entry = context.data.node(id);
  if (entry === undefined || (entry.repo !== undefined && !canSee(context.grant, entry.repo.owner, entry.repo.name))) {
    throw notFound(`Could not resolve to a node with the global id of '${id}'`);
  }
  const item = entry.item ?? (entry.record as GitHubItemData);
  if (entry.repo !== undefined && !['Repository', 'Label', 'DiscussionCategory'].includes(entry.type)) {
    requirePermission(
      context.grant,
      'category' in item ? 'discussions' : 'reviews' in item ? 'pullRequests' : 'issues',
    );
  }
  return View.of(entry);
}

/** The item numbered `number`; an issue transferred away resolves to its new home, as GitHub redirects. */
function numbered(
  context: ResolverContext,
  repo: GitHubRepositoryData,
  kind: 'issue' | 'pullRequest' | 'discussion',
  number: number,
): View {
  requirePermission(context.grant, PERMISSION_OF_KIND[kind]);
  const served = kind !== 'discussion' || repo.hasDiscussionsEnabled;
  const item = served ? itemList(repo, kind).find((candidate) => candidate.number === number) : undefined;
  if (item !== undefined) return itemView(repo, item);
  const transfer = kind === 'issue' ? repo.transfers.find((t) => t.number === number) : undefined;
  const destination = transfer && context.data.repository(transfer.owner, transfer.name);
  if (transfer !== undefined && destination !== undefined && canSee(context.grant, destination.owner, destination.name))
    return numbered(context, destination, 'issue', transfer.newNumber);
  const label = kind === 'issue' ? 'an Issue' : kind === 'pullRequest' ? 'a PullRequest' : 'a Discussion';
  throw notFound(`Could not resolve to ${label} with the number of ${number}.`);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
