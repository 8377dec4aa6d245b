// Why: the GraphQL text of a mirror sync, written once. Selections request exactly the fields
// graphql-nodes.ts validates (what `gh ... --json` prints, plus ids for follow-up pages), the page
// sizes keep each query far below GitHub's 500,000-node limit and at one or two rate-limit points,
// and queries are assembled from the lanes still running so one request can carry a page of issues,
// pull requests and discussions at once.

/** The three kinds of mirrored item; also the keys of Sepo's `cursors`. */
export type MirrorLane = 'issues' | 'pulls' | 'discussions';

/** Every lane, in the order they are listed. */
export const MIRROR_LANES: readonly MirrorLane[] = ['issues', 'pulls', 'discussions'];

/** Items per page of each lane, and entries per nested connection on that page. */
export const PAGE_SIZES = {
  issues: 100,
  pulls: 50,
  discussions: 25,
  labels: 20,
  comments: 20,
  /** Comments per discussion on a page (each with its replies: GitHub charges for every nested page). */
  discussionComments: 10,
  reviews: 20,
  files: 50,
  replies: 5,
  /** Entries per follow-up page of an overflowing nested connection. */
  followUp: 100,
  /** Overflowing connections fetched by one follow-up request. */
  followUpsPerRequest: 40,
} as const;

const PAGE_INFO = 'pageInfo { hasNextPage endCursor }';
const REACTIONS = 'reactionGroups { content reactors { totalCount } }';
const ITEM_AUTHOR = 'author { login ... on User { id name } }';

/** Fields of each kind of nested node. */
export const NODE_FIELDS = {
  label: 'id name description color',
  comment: `id author { login } authorAssociation body createdAt includesCreatedEdit isMinimized minimizedReason ${REACTIONS} url viewerDidAuthor`,
  review: `id author { login } authorAssociation body submittedAt includesCreatedEdit ${REACTIONS} state commit { oid }`,
  file: 'path additions deletions changeType',
  reply: 'id body createdAt url author { login } replyTo { id }',
  discussionComment: `id body createdAt url author { login } replies(first: ${PAGE_SIZES.replies}) { nodes { id body createdAt url author { login } replyTo { id } } ${PAGE_INFO} }`,
} as const;

function connection(name: string, first: number, fields: string, extra = ''): string {
  return `${name}(first: ${first}${extra}) { nodes { ${fields} } ${PAGE_INFO} }`;
}

const ISSUE_FIELDS = [
  `id number title body url state ${ITEM_AUTHOR} createdAt updatedAt closedAt`,
  connection('labels', PAGE_SIZES.labels, NODE_FIELDS.label),
  connection('comments', PAGE_SIZES.comments, NODE_FIELDS.comment),
].join(' ');

const PULL_FIELDS = [
  `id number title body url state ${ITEM_AUTHOR} createdAt updatedAt closedAt mergedAt reviewDecision headRefName baseRefName`,
  connection('labels', PAGE_SIZES.labels, NODE_FIELDS.label),
  connection('comments', PAGE_SIZES.comments, NODE_FIELDS.comment),
  connection('reviews', PAGE_SIZES.reviews, NODE_FIELDS.review),
  connection('files', PAGE_SIZES.files, NODE_FIELDS.file),
].join(' ');

const DISCUSSION_FIELDS = [
  'id number title url body createdAt updatedAt author { login } category { name }',
  connection('comments', PAGE_SIZES.discussionComments, NODE_FIELDS.discussionComment),
].join(' ');

const DESC = 'orderBy: { field: UPDATED_AT, direction: DESC }';

/** Where one lane's next page starts. */
export interface LanePageRequest {
  readonly lane: MirrorLane;
  /** Opaque GitHub cursor of the previous page, or `null` for the newest items. */
  readonly after: string | null;
  /** Issues only: `filterBy.since` (items updated at or after it). */
  readonly since: string | null;
}

function laneSelection(request: LanePageRequest, scale: number): { text: string; variables: string[] } {
  const first = (size: number): number => Math.max(1, Math.floor(size * scale));
  switch (request.lane) {
    case 'issues':
      return {
        // `issueTotal`: the count of every issue (the page's own count is of those since the cursor).
        text: `issueTotal: issues(first: 1) { totalCount } issues(first: ${first(PAGE_SIZES.issues)}, after: $issuesAfter, ${DESC}, filterBy: { since: $issuesSince }) { totalCount nodes { ${ISSUE_FIELDS} } ${PAGE_INFO} }`,
        variables: ['$issuesAfter: String', '$issuesSince: DateTime'],
      };
    case 'pulls':
      return {
        text: `pullRequests(first: ${first(PAGE_SIZES.pulls)}, after: $pullsAfter, ${DESC}) { totalCount nodes { ${PULL_FIELDS} } ${PAGE_INFO} }`,
        variables: ['$pullsAfter: String'],
      };
    case 'discussions':
      return {
        text: `discussions(first: ${first(PAGE_SIZES.discussions)}, after: $discussionsAfter, states: [OPEN, CLOSED], ${DESC}) { totalCount nodes { ${DISCUSSION_FIELDS} } ${PAGE_INFO} }`,
        variables: ['$discussionsAfter: String'],
      };
  }
}

/**
 * One page of every lane in `requests`, with the repository's identity and discussion switch.
 * `scale` (default 1) shrinks the item pages, for a GitHub that keeps failing on full ones.
 */
export function pageQuery(
  requests: readonly LanePageRequest[],
  scale = 1,
): {
  query: string;
  variables: (owner: string, name: string) => Record<string, unknown>;
} {
  const parts = requests.map((request) => laneSelection(request, scale));
  const declarations = ['$owner: String!', '$name: String!', ...parts.flatMap((part) => part.variables)];
  const query = `query MirrorPage(${declarations.join(', ')}) { repository(owner: $owner, name: $name) { nameWithOwner hasDiscussionsEnabled ${parts.map((part) => part.text).join(' ')} } }`;
  return {
    query,
    variables: (owner, name) => {
      const values: Record<string, unknown> = { owner, name };
      for (const request of requests) {
        values[`${request.lane}After`] = request.after;
        if (request.lane === 'issues') values.issuesSince = request.since;
      }
      return values;
    },
  };
}

const LANE_CONNECTION = { issues: 'issues', pulls: 'pullRequests', discussions: 'discussions' } as const;
const LANE_ITEM = { issues: 'issue', pulls: 'pullRequest', discussions: 'discussion' } as const;

/** One page of the numbers of a lane's items (to find items that left the repository). */
export function numbersQuery(lane: MirrorLane): string {
  return `query MirrorNumbers($owner: String!, $name: String!, $after: String) { repository(owner: $owner, name: $name) { list: ${LANE_CONNECTION[lane]}(first: 100, after: $after${lane === 'discussions' ? ', states: [OPEN, CLOSED]' : ''}) { nodes { number } ${PAGE_INFO} } } }`;
}

/** Where each of `numbers` lives now (aliases `m0`, `m1`...; `null` for a deleted item). */
export function whereaboutsQuery(
  lane: MirrorLane,
  numbers: readonly number[],
): { query: string; variables: Record<string, unknown> } {
  const declarations = ['$owner: String!', '$name: String!', ...numbers.map((_, index) => `$n${index}: Int!`)];
  const selections = numbers.map(
    (_, index) => `m${index}: ${LANE_ITEM[lane]}(number: $n${index}) { number url repository { nameWithOwner } }`,
  );
  const variables: Record<string, unknown> = {};
  numbers.forEach((number, index) => {
    variables[`n${index}`] = number;
  });
  return {
    query: `query MirrorWhereabouts(${declarations.join(', ')}) { repository(owner: $owner, name: $name) { ${selections.join(' ')} } }`,
    variables,
  };
}

/** A nested connection that did not fit its page: which node, which connection, where it resumes. */
export interface FollowUp {
  /** Node id of the issue, pull request, discussion or discussion comment. */
  readonly nodeId: string;
  /** GraphQL type of that node. */
  readonly typename: 'Issue' | 'PullRequest' | 'Discussion' | 'DiscussionComment';
  readonly connection: 'labels' | 'comments' | 'reviews' | 'files' | 'replies';
  readonly after: string;
}

function followUpFields(followUp: FollowUp): string {
  if (followUp.connection === 'labels') return NODE_FIELDS.label;
  if (followUp.connection === 'reviews') return NODE_FIELDS.review;
  if (followUp.connection === 'files') return NODE_FIELDS.file;
  if (followUp.connection === 'replies') return NODE_FIELDS.reply;
  return followUp.typename === 'Discussion' ? NODE_FIELDS.discussionComment : NODE_FIELDS.comment;
}

/** One request continuing several overflowing connections (aliases `f0`, `f1`...; each answers `page`). */
export function followUpQuery(followUps: readonly FollowUp[]): { query: string; variables: Record<string, unknown> } {
  const declarations: string[] = [];
  const selections: string[] = [];
  const variables: Record<string, unknown> = {};
  followUps.forEach((followUp, index) => {
    declarations.push(`$id${index}: ID!`, `$after${index}: String`);
    variables[`id${index}`] = followUp.nodeId;
    variables[`after${index}`] = followUp.after;
    const page = `page: ${connection(followUp.connection, PAGE_SIZES.followUp, followUpFields(followUp), `, after: $after${index}`)}`;
    selections.push(`f${index}: node(id: $id${index}) { ... on ${followUp.typename} { ${page} } }`);
  });
  return { query: `query MirrorFollowUp(${declarations.join(', ')}) { ${selections.join(' ')} }`, variables };
}
