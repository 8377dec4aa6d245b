// Why: the entry points of GitHub's graph: `repository(owner, name)` with its issue, pull request
// and discussion connections (GitHub's filters, orderings and NOT_FOUND lookups by number), and
// the root fields (`viewer`, `node`/`nodes`, `search`, `rateLimit`).
import { GraphQLError } from 'graphql';
import { paginate } from './connection.js';
import type { GitHubItemData } from './data-set.js';
import { nodeId } from './ids.js';
import type { GitHubRepositoryData } from './model.js';
import {
  actorView,
  connectionArgs,
  hasLabels,
  itemView,
  notFound,
  numbered,
  type Order,
  orderedKey,
  PERMISSION_OF_KIND,
  type Resolver,
  repoView,
  visibleNode,
  WEB_ORIGIN,
} from './resolver-kit.js';
import { SEARCH_RESULT_CAP, searchItems } from './search.js';
import { canSee, requirePermission } from './token-grants.js';
import { View } from './views.js';

/** Resolvers of the root query and of repositories. */
export const ROOT_RESOLVERS: Record<string, Record<string, Resolver>> = {
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
};
