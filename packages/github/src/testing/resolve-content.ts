import { paginate } from './connection.js';
import type { GitHubItemData } from './data-set.js';
import { nodeId } from './ids.js';
import type {
  GitHubActorData,
  GitHubCommentBase,
  GitHubDiscussionCommentData,
  GitHubDiscussionData,
  GitHubIssueCommentData,
  GitHubIssueLikeData,
  GitHubPullRequestData,
  GitHubReviewData,
} from './model.js';
import {
  type Args,
  actorView,
  commentKey,
  connectionArgs,
  emptyPageInfo,
  escapeHtml,
  itemUrl,
  itemView,
  type Order,
  type Resolver,
  reactionGroups,
  repoView,
  WEB_ORIGIN,
} from './resolver-kit.js';
import { View } from './views.js';

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

/** Resolvers of items, comments, reviews, labels and actors. */
export const CONTENT_RESOLVERS: Record<string, Record<string, Resolver>> = {
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
