// Why: proves the loopback model holds everything `gh --json` wrote into the fixture tree: these
// queries and this small mapping (what `gh` does: bots as `app/<login>` with `is_bot`, empty
// strings for null `minimizedReason` and `reviewDecision`, zero reaction groups dropped) turn
// GraphQL answers back into the fixture's files. Test support only; the sync has its own mapping.

const PAGE = 'pageInfo { hasNextPage endCursor }';
const REACTIONS = 'reactionGroups { content users { totalCount } }';
const AUTHOR = 'author { __typename login ... on User { id name } }';
const COMMENTS = `comments(first: 100) { nodes { id author { login } authorAssociation body createdAt includesCreatedEdit isMinimized minimizedReason ${REACTIONS} url viewerDidAuthor } }`;
const LABELS = 'labels(first: 20) { nodes { id name description color } }';

/** Every issue of a repository with the fields of `issue-N.json`. */
export const ISSUES_QUERY = `query ($owner: String!, $name: String!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    issues(first: 50, after: $cursor) { nodes { number title body url state ${AUTHOR} createdAt updatedAt closedAt ${LABELS} ${COMMENTS} } ${PAGE} }
  }
}`;

/** Every pull request with the fields of `pull-N.json`. */
export const PULLS_QUERY = `query ($owner: String!, $name: String!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    pullRequests(first: 25, after: $cursor) { nodes { number title body url state ${AUTHOR} createdAt updatedAt closedAt mergedAt
      reviewDecision baseRefName headRefName ${LABELS} ${COMMENTS}
      reviews(first: 50) { nodes { id author { login } authorAssociation body commit { oid } includesCreatedEdit ${REACTIONS} state submittedAt } }
      files(first: 100) { nodes { path additions deletions changeType } } } ${PAGE} }
  }
}`;

/** Every discussion with the fields of `discussion-N.json`. */
export const DISCUSSIONS_QUERY = `query ($owner: String!, $name: String!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    discussions(first: 25, after: $cursor) { nodes { number title url body createdAt updatedAt author { login } category { name }
      comments(first: 50) { nodes { id body createdAt url author { login }
        replies(first: 50) { nodes { id body createdAt url author { login } replyTo { id } } ${PAGE} } } ${PAGE} } } ${PAGE} }
  }
}`;

type Json = Record<string, unknown>;
type Connection = { nodes: Json[]; pageInfo?: { hasNextPage: boolean; endCursor: string | null } };

function ghAuthor(author: Json): Json {
  if (author.__typename === 'Bot') return { is_bot: true, login: `app/${author.login}` };
  return { id: author.id, is_bot: false, login: author.login, name: author.name };
}

function ghReactions(groups: { content: string; users: { totalCount: number } }[]): Json[] {
  return groups.filter((group) => group.users.totalCount > 0);
}

function ghComment(comment: Json): Json {
  return {
    ...comment,
    minimizedReason: comment.minimizedReason ?? '',
    reactionGroups: ghReactions(comment.reactionGroups as { content: string; users: { totalCount: number } }[]),
  };
}

/** An issue node as `gh issue view --json` prints it. */
export function ghIssue(node: Json): Json {
  return {
    ...node,
    author: ghAuthor(node.author as Json),
    labels: (node.labels as Connection).nodes,
    comments: (node.comments as Connection).nodes.map(ghComment),
  };
}

/** A pull request node as `gh pr view --json` prints it. */
export function ghPull(node: Json): Json {
  return {
    ...ghIssue(node),
    reviewDecision: node.reviewDecision ?? '',
    reviews: (node.reviews as Connection).nodes.map((review) => ({
      ...review,
      reactionGroups: ghReactions(review.reactionGroups as { content: string; users: { totalCount: number } }[]),
    })),
    files: (node.files as Connection).nodes,
  };
}

/** A discussion node as the fixture stores it (raw GraphQL; finished connections end with a null cursor). */
export function ghDiscussion(node: Json): Json {
  const finished = (connection: Connection): Connection => ({
    ...connection,
    pageInfo: { hasNextPage: false, endCursor: null },
  });
  const comments = node.comments as Connection;
  return {
    ...node,
    comments: finished({
      nodes: comments.nodes.map((comment) => ({ ...comment, replies: finished(comment.replies as Connection) })),
    }),
  };
}
