// Why: one page answer holds items whose nested connections (comments, reviews, files, labels,
// discussion comments and replies) may not have fit. This module validates the page, finds every
// connection that overflowed, and merges the follow-up pages back into the items, so an item is
// written only once it is complete and only the overflowing connections cost extra requests.
import { RepomemError } from '@repomem/core';
import { z } from 'zod';
import {
  CommentNodeSchema,
  connectionSchema,
  type DiscussionCommentNode,
  DiscussionCommentNodeSchema,
  type DiscussionNode,
  DiscussionNodeSchema,
  FileNodeSchema,
  type IssueNode,
  IssueNodeSchema,
  LabelNodeSchema,
  type PageInfo,
  type PullNode,
  PullNodeSchema,
  ReplyNodeSchema,
  ReviewNodeSchema,
} from './graphql-nodes.js';
import type { FollowUp, MirrorLane } from './graphql-selections.js';

/** A validated item of any lane. */
export type LaneItem =
  | { readonly lane: 'issues'; readonly node: IssueNode }
  | { readonly lane: 'pulls'; readonly node: PullNode }
  | { readonly lane: 'discussions'; readonly node: DiscussionNode };

/** One lane's page: its items (newest first), page info and the lane's item count. */
export interface LanePage {
  readonly items: LaneItem[];
  readonly pageInfo: PageInfo;
  readonly totalCount: number;
}

/** A validated page answer. */
export interface RepositoryPage {
  readonly nameWithOwner: string;
  readonly hasDiscussionsEnabled: boolean;
  readonly lanes: Partial<Record<MirrorLane, LanePage>>;
}

const LANE_FIELD = { issues: 'issues', pulls: 'pullRequests', discussions: 'discussions' } as const;

const LANE_SCHEMAS = {
  issues: connectionSchema(IssueNodeSchema),
  pulls: connectionSchema(PullNodeSchema),
  discussions: connectionSchema(DiscussionNodeSchema),
} as const;

function unexpected(what: string, error: z.ZodError): RepomemError {
  const issue = error.issues[0];
  const where = issue === undefined ? '' : ` at ${issue.path.join('.')}`;
  return new RepomemError(
    'BACKEND_UNAVAILABLE',
    `GitHub answered ${what} in an unexpected shape (${issue?.message ?? 'invalid'}${where})`,
  );
}

/** Validate a page answer's `repository` for the lanes that were asked. */
export function parseRepositoryPage(repository: unknown, lanes: readonly MirrorLane[]): RepositoryPage {
  const head = z.object({ nameWithOwner: z.string(), hasDiscussionsEnabled: z.boolean() }).safeParse(repository);
  if (!head.success) throw unexpected('the repository', head.error);
  const pages: Partial<Record<MirrorLane, LanePage>> = {};
  const issueTotal = z
    .object({ totalCount: z.number().int().nonnegative() })
    .safeParse((repository as Record<string, unknown>).issueTotal);
  for (const lane of lanes) {
    const raw = (repository as Record<string, unknown>)[LANE_FIELD[lane]];
    const parsed = LANE_SCHEMAS[lane].safeParse(raw);
    if (!parsed.success) throw unexpected(`a page of ${lane}`, parsed.error);
    const items = parsed.data.nodes.filter((node) => node !== null).map((node) => ({ lane, node }) as LaneItem);
    const totalCount = lane === 'issues' && issueTotal.success ? issueTotal.data.totalCount : parsed.data.totalCount;
    pages[lane] = { items, pageInfo: parsed.data.pageInfo, totalCount: totalCount ?? 0 };
  }
  return { ...head.data, lanes: pages };
}

/** A follow-up to fetch, and where its nodes go. */
export interface PendingFollowUp {
  readonly request: FollowUp;
  /** Validate and append one follow-up page; returns further follow-ups (the next page, nested overflow). */
  readonly accept: (page: unknown) => PendingFollowUp[];
}

type AnySchema = z.ZodType<{ nodes: (unknown | null)[]; pageInfo: PageInfo }>;

function pending(
  request: FollowUp,
  schema: AnySchema,
  target: unknown[],
  nested?: (nodes: unknown[]) => PendingFollowUp[],
): PendingFollowUp {
  return {
    request,
    accept: (page) => {
      const parsed = schema.safeParse(page);
      if (!parsed.success) throw unexpected(`more ${request.connection}`, parsed.error);
      const nodes = parsed.data.nodes.filter((node) => node !== null);
      target.push(...nodes);
      const more = nested?.(nodes) ?? [];
      const { hasNextPage, endCursor } = parsed.data.pageInfo;
      if (hasNextPage && endCursor !== null) {
        more.push(pending({ ...request, after: endCursor }, schema, target, nested));
      }
      return more;
    },
  };
}

function overflow(
  connection: { nodes: unknown[]; pageInfo: PageInfo } | null,
  make: (after: string, target: unknown[]) => PendingFollowUp,
): PendingFollowUp[] {
  if (connection === null || !connection.pageInfo.hasNextPage || connection.pageInfo.endCursor === null) return [];
  return [make(connection.pageInfo.endCursor, connection.nodes)];
}

const SCHEMAS = {
  labels: connectionSchema(LabelNodeSchema) as AnySchema,
  comments: connectionSchema(CommentNodeSchema) as AnySchema,
  reviews: connectionSchema(ReviewNodeSchema) as AnySchema,
  files: connectionSchema(FileNodeSchema) as AnySchema,
  replies: connectionSchema(ReplyNodeSchema) as AnySchema,
  discussionComments: connectionSchema(DiscussionCommentNodeSchema) as AnySchema,
};

function replyFollowUps(comments: readonly DiscussionCommentNode[]): PendingFollowUp[] {
  return comments.flatMap((comment) =>
    overflow(comment.replies, (after, target) =>
      pending(
        { nodeId: comment.id, typename: 'DiscussionComment', connection: 'replies', after },
        SCHEMAS.replies,
        target,
      ),
    ),
  );
}

/** Every overflowing nested connection of `item`. */
export function followUpsOf(item: LaneItem): PendingFollowUp[] {
  const simple = (
    typename: FollowUp['typename'],
    connection: 'labels' | 'comments' | 'reviews' | 'files',
    value: { nodes: unknown[]; pageInfo: PageInfo } | null,
  ) =>
    overflow(value, (after, target) =>
      pending({ nodeId: item.node.id, typename, connection, after }, SCHEMAS[connection], target),
    );
  switch (item.lane) {
    case 'issues':
      return [...simple('Issue', 'labels', item.node.labels), ...simple('Issue', 'comments', item.node.comments)];
    case 'pulls':
      return [
        ...simple('PullRequest', 'labels', item.node.labels),
        ...simple('PullRequest', 'comments', item.node.comments),
        ...simple('PullRequest', 'reviews', item.node.reviews),
        ...simple('PullRequest', 'files', item.node.files),
      ];
    case 'discussions': {
      const comments = item.node.comments;
      return [
        ...replyFollowUps(comments.nodes.filter((node) => node !== null)),
        ...overflow(comments, (after, target) =>
          pending(
            { nodeId: item.node.id, typename: 'Discussion', connection: 'comments', after },
            SCHEMAS.discussionComments,
            target,
            (nodes) => replyFollowUps(nodes as DiscussionCommentNode[]),
          ),
        ),
      ];
    }
  }
}
