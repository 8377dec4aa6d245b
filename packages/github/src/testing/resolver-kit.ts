// Why: what every GraphQL resolver of the loopback API shares: the request context, how records
// become GraphQL objects (views of actors, repositories and items), URLs as GitHub builds them,
// paging arguments and orderings, GitHub's NOT_FOUND and FORBIDDEN answers for lookups.
import { GraphQLError } from 'graphql';
import type { ConnectionArgs, SortKey } from './connection.js';
import { type GitHubDataSet, type GitHubItemData, itemList } from './data-set.js';
import {
  type GitHubActorData,
  type GitHubCommentBase,
  type GitHubDiscussionData,
  type GitHubIssueLikeData,
  type GitHubRepositoryData,
  REACTION_CONTENTS,
} from './model.js';
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

/** Arguments of a field, as graphql-js coerced them. */
export type Args = Readonly<Record<string, unknown>>;
/** A computed field: the source view, the field's arguments, the request context. */
export type Resolver = (source: View, args: Args, context: ResolverContext) => unknown;

/** GitHub's NOT_FOUND error for a lookup (the field answers null). */
export function notFound(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { type: 'NOT_FOUND' } });
}

/** The author as GraphQL serves it; null for a deleted account (GitHub shows those as "ghost" on the web). */
export function actorView(context: ResolverContext, login: string | null): View | null {
  if (login === null) return null;
  const actor: GitHubActorData = context.data.actor(login);
  return new View(actor.type, actor);
}

/** A repository as a GraphQL object. */
export function repoView(repo: GitHubRepositoryData): View {
  return new View('Repository', repo, repo);
}

/** An issue, pull request or discussion as a GraphQL object of its type. */
export function itemView(repo: GitHubRepositoryData, item: GitHubItemData): View {
  const type = 'category' in item ? 'Discussion' : 'reviews' in item ? 'PullRequest' : 'Issue';
  return new View(type, item, repo);
}

/** The web URL of the item a view is (or belongs to), as GitHub builds it. */
export function itemUrl(view: View): string {
  const repo = view.repo!;
  const item = (view.item ?? view.record) as GitHubItemData;
  const kind = 'category' in item ? 'discussions' : 'reviews' in item ? 'pull' : 'issues';
  return `${WEB_ORIGIN}/${repo.owner}/${repo.name}/${kind}/${item.number}`;
}

/** The paging arguments of a connection field. */
export function connectionArgs(args: Args): ConnectionArgs {
  return {
    first: args.first as number | null | undefined,
    last: args.last as number | null | undefined,
    after: args.after as string | null | undefined,
    before: args.before as string | null | undefined,
  };
}

/** An `orderBy` argument (`IssueOrder`, `DiscussionOrder`...). */
export interface Order {
  readonly field?: string;
  readonly direction?: 'ASC' | 'DESC';
}

/** Numbered items ordered as `orderBy` asks (default: creation order, ascending). */
export function orderedKey(order: Order | undefined, fallbackField: string): (item: GitHubItemData) => SortKey {
  const field = order?.field ?? fallbackField;
  if (field === 'UPDATED_AT') return (item) => [item.updatedAt, item.number];
  if (field === 'COMMENTS') return (item) => [item.comments.length, item.number];
  return (item) => [item.createdAt, item.number];
}

/** Comments are listed in creation order. */
export function commentKey(comment: GitHubCommentBase): SortKey {
  return [comment.createdAt, comment.databaseId];
}

/** All eight reaction groups in GitHub's order, zero counts included, as GitHub serves them. */
export function reactionGroups(view: View): unknown[] {
  const reactions = (view.record as GitHubCommentBase).reactions ?? [];
  return REACTION_CONTENTS.map((content) => {
    const count = reactions.find((reaction) => reaction.content === content)?.count ?? 0;
    const users = { totalCount: count, nodes: [], edges: [], pageInfo: emptyPageInfo() };
    return { content, createdAt: null, users, reactors: users, viewerHasReacted: false };
  });
}

/** The page info of an empty connection. */
export function emptyPageInfo() {
  return { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null };
}

/** True when the item carries one of `names` (or no label filter is given). */
export function hasLabels(item: GitHubIssueLikeData | GitHubDiscussionData, names: unknown): boolean {
  if (!Array.isArray(names) || names.length === 0) return true;
  return names.some((name) => item.labels.some((label) => label.toLowerCase() === String(name).toLowerCase()));
}

/** The permission each kind of item needs. */
export const PERMISSION_OF_KIND: Record<'issue' | 'pullRequest' | 'discussion', LoopbackPermissionName> = {
  issue: 'issues',
  pullRequest: 'pullRequests',
  discussion: 'discussions',
};

/** A node the token may see: NOT_FOUND when it does not exist or sits in a hidden repository, FORBIDDEN without its permission. */
export function visibleNode(context: ResolverContext, id: string): View {
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
export function numbered(
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

/** Text escaped for the `*HTML` fields. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
