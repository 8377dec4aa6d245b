// Why: GitHub's GraphQL answers are outside data. Every node the mirror reads is validated here
// before it is mapped to a `gh`-format file, and the TypeScript types the mapping uses are derived
// from these schemas, so the shape is written once. The selections that request exactly these
// fields live in graphql-selections.ts.
import { z } from 'zod';

/** `pageInfo { hasNextPage endCursor }` of a connection. */
export const PageInfoSchema = z.object({
  hasNextPage: z.boolean(),
  endCursor: z.string().nullable(),
});

/** A connection page: its nodes (GitHub may answer `null` for a node it cannot show) and page info. */
export function connectionSchema<T extends z.ZodType>(node: T) {
  return z.object({
    nodes: z.array(node.nullable()),
    pageInfo: PageInfoSchema,
    totalCount: z.number().int().nonnegative().optional(),
  });
}

/** An item's author as `gh` asks for it: a login, plus id and name when it is a user. */
export const ItemAuthorSchema = z
  .object({
    login: z.string(),
    id: z.string().optional(),
    name: z.string().nullable().optional(),
  })
  .nullable();

/** A comment's author (`author { login }`); `null` for a deleted account. */
export const LoginSchema = z.object({ login: z.string() }).nullable();

/** `reactionGroups { content reactors { totalCount } }`. */
export const ReactionGroupSchema = z.object({
  content: z.string(),
  reactors: z.object({ totalCount: z.number().int().nonnegative() }),
});

/** A repository label. */
export const LabelNodeSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  color: z.string(),
});

/** An issue or pull request conversation comment (`IssueComment`). */
export const CommentNodeSchema = z.object({
  id: z.string(),
  author: LoginSchema,
  authorAssociation: z.string(),
  body: z.string(),
  createdAt: z.string(),
  includesCreatedEdit: z.boolean(),
  isMinimized: z.boolean(),
  minimizedReason: z.string().nullable(),
  reactionGroups: z.array(ReactionGroupSchema).nullable(),
  url: z.string(),
  viewerDidAuthor: z.boolean(),
});

/** A pull request review. */
export const ReviewNodeSchema = z.object({
  id: z.string(),
  author: LoginSchema,
  authorAssociation: z.string(),
  body: z.string(),
  submittedAt: z.string().nullable(),
  includesCreatedEdit: z.boolean(),
  reactionGroups: z.array(ReactionGroupSchema).nullable(),
  state: z.string(),
  commit: z.object({ oid: z.string() }).nullable(),
});

/** A file a pull request changes. */
export const FileNodeSchema = z.object({
  path: z.string(),
  additions: z.number().int(),
  deletions: z.number().int(),
  changeType: z.string(),
});

/** A reply to a discussion comment. */
export const ReplyNodeSchema = z.object({
  id: z.string(),
  body: z.string(),
  createdAt: z.string(),
  url: z.string(),
  author: LoginSchema,
  replyTo: z.object({ id: z.string() }).nullable(),
});

/** A top-level discussion comment with the first page of its replies. */
export const DiscussionCommentNodeSchema = z.object({
  id: z.string(),
  body: z.string(),
  createdAt: z.string(),
  url: z.string(),
  author: LoginSchema,
  replies: connectionSchema(ReplyNodeSchema),
});

const itemBase = {
  id: z.string(),
  number: z.number().int().positive(),
  title: z.string(),
  body: z.string(),
  url: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

/** An issue with the first pages of its labels and comments. */
export const IssueNodeSchema = z.object({
  ...itemBase,
  state: z.string(),
  author: ItemAuthorSchema,
  closedAt: z.string().nullable(),
  labels: connectionSchema(LabelNodeSchema).nullable(),
  comments: connectionSchema(CommentNodeSchema),
});

/** A pull request with the first pages of its labels, comments, reviews and files. */
export const PullNodeSchema = z.object({
  ...itemBase,
  state: z.string(),
  author: ItemAuthorSchema,
  closedAt: z.string().nullable(),
  mergedAt: z.string().nullable(),
  reviewDecision: z.string().nullable(),
  headRefName: z.string(),
  baseRefName: z.string(),
  labels: connectionSchema(LabelNodeSchema).nullable(),
  comments: connectionSchema(CommentNodeSchema),
  reviews: connectionSchema(ReviewNodeSchema).nullable(),
  files: connectionSchema(FileNodeSchema).nullable(),
});

/** A discussion with the first page of its comments (each with the first page of its replies). */
export const DiscussionNodeSchema = z.object({
  ...itemBase,
  author: LoginSchema,
  category: z.object({ name: z.string() }).nullable(),
  comments: connectionSchema(DiscussionCommentNodeSchema),
});

/** A validated issue node. */
export type IssueNode = z.infer<typeof IssueNodeSchema>;
/** A validated pull request node. */
export type PullNode = z.infer<typeof PullNodeSchema>;
/** A validated discussion node. */
export type DiscussionNode = z.infer<typeof DiscussionNodeSchema>;
/** A validated conversation comment. */
export type CommentNode = z.infer<typeof CommentNodeSchema>;
/** A validated review. */
export type ReviewNode = z.infer<typeof ReviewNodeSchema>;
/** A validated changed file. */
export type FileNode = z.infer<typeof FileNodeSchema>;
/** A validated label. */
export type LabelNode = z.infer<typeof LabelNodeSchema>;
/** A validated discussion comment. */
export type DiscussionCommentNode = z.infer<typeof DiscussionCommentNodeSchema>;
/** A validated discussion reply. */
export type ReplyNode = z.infer<typeof ReplyNodeSchema>;
/** A validated reaction group. */
export type ReactionGroupNode = z.infer<typeof ReactionGroupSchema>;
/** A validated `pageInfo`. */
export type PageInfo = z.infer<typeof PageInfoSchema>;
