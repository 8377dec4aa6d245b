// Why: the shapes of the mirror files `gh ... --json` writes (issue-N.json, pull-N.json,
// discussion-N.json), checked with zod when a fixture tree is loaded, so a fixture that drifts
// from what the loader understands fails loudly instead of serving half-filled records.
import { z } from 'zod';

const reactionGroup = z.object({
  content: z.enum(['THUMBS_UP', 'THUMBS_DOWN', 'LAUGH', 'HOORAY', 'CONFUSED', 'HEART', 'ROCKET', 'EYES']),
  users: z.object({ totalCount: z.number().int().nonnegative() }),
});

const association = z.enum([
  'COLLABORATOR',
  'CONTRIBUTOR',
  'FIRST_TIMER',
  'FIRST_TIME_CONTRIBUTOR',
  'MANNEQUIN',
  'MEMBER',
  'NONE',
  'OWNER',
]);

/** An item's author as `gh` writes it: users with id and name, bots as `app/<slug>` with `is_bot`. */
export const fixtureItemAuthorSchema = z.object({
  id: z.string().optional(),
  is_bot: z.boolean().optional(),
  login: z.string(),
  name: z.string().optional(),
});

const label = z.object({ id: z.string(), name: z.string(), description: z.string(), color: z.string() });

/** A comment of an issue or pull request file. */
export const fixtureCommentSchema = z.object({
  id: z.string(),
  author: z.object({ login: z.string() }),
  authorAssociation: association,
  body: z.string(),
  createdAt: z.string(),
  includesCreatedEdit: z.boolean(),
  isMinimized: z.boolean(),
  minimizedReason: z.string(),
  reactionGroups: z.array(reactionGroup),
  url: z.string(),
  viewerDidAuthor: z.boolean(),
});

/** `issue-N.json`. */
export const fixtureIssueSchema = z.object({
  author: fixtureItemAuthorSchema,
  body: z.string(),
  closedAt: z.string().nullable(),
  comments: z.array(fixtureCommentSchema),
  createdAt: z.string(),
  labels: z.array(label),
  number: z.number().int().positive(),
  state: z.enum(['OPEN', 'CLOSED']),
  title: z.string(),
  updatedAt: z.string(),
  url: z.string(),
});

/** A review in `pull-N.json`. */
export const fixtureReviewSchema = z.object({
  id: z.string(),
  author: z.object({ login: z.string() }),
  authorAssociation: association,
  body: z.string(),
  commit: z.object({ oid: z.string() }),
  includesCreatedEdit: z.boolean(),
  reactionGroups: z.array(reactionGroup),
  state: z.enum(['APPROVED', 'CHANGES_REQUESTED', 'COMMENTED', 'DISMISSED', 'PENDING']),
  submittedAt: z.string().nullable(),
});

/** `pull-N.json`. */
export const fixturePullSchema = fixtureIssueSchema.extend({
  state: z.enum(['OPEN', 'CLOSED', 'MERGED']),
  baseRefName: z.string(),
  headRefName: z.string(),
  mergedAt: z.string().nullable(),
  reviewDecision: z.enum(['', 'APPROVED', 'CHANGES_REQUESTED', 'REVIEW_REQUIRED']),
  reviews: z.array(fixtureReviewSchema),
  files: z.array(
    z.object({
      path: z.string(),
      additions: z.number().int().nonnegative(),
      deletions: z.number().int().nonnegative(),
      changeType: z.enum(['ADDED', 'CHANGED', 'COPIED', 'DELETED', 'MODIFIED', 'RENAMED']),
    }),
  ),
});

const pageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });

/** A reply in `discussion-N.json`. */
export const fixtureDiscussionReplySchema = z.object({
  id: z.string(),
  body: z.string(),
  createdAt: z.string(),
  url: z.string(),
  author: z.object({ login: z.string() }).nullable(),
  replyTo: z.object({ id: z.string() }).nullable(),
});

/** `discussion-N.json` (raw GraphQL: connections keep `nodes` and `pageInfo`). */
export const fixtureDiscussionSchema = z.object({
  number: z.number().int().positive(),
  title: z.string(),
  url: z.string(),
  body: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  author: z.object({ login: z.string() }).nullable(),
  category: z.object({ name: z.string() }),
  comments: z.object({
    nodes: z.array(
      fixtureDiscussionReplySchema.omit({ replyTo: true }).extend({
        replies: z.object({ nodes: z.array(fixtureDiscussionReplySchema), pageInfo }),
      }),
    ),
    pageInfo,
  }),
});

/** A parsed `issue-N.json`. */
export type FixtureIssue = z.infer<typeof fixtureIssueSchema>;
/** A parsed `pull-N.json`. */
export type FixturePull = z.infer<typeof fixturePullSchema>;
/** A parsed `discussion-N.json`. */
export type FixtureDiscussion = z.infer<typeof fixtureDiscussionSchema>;
/** A comment of an issue or pull request file. */
export type FixtureComment = z.infer<typeof fixtureCommentSchema>;
/** An item author as `gh` writes it. */
export type FixtureItemAuthor = z.infer<typeof fixtureItemAuthorSchema>;
