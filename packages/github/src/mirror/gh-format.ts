// Why: an agent reads the mirror with `jq` queries written against `gh issue view --json` and
// `gh pr view --json` output, and discussions as Sepo's GraphQL dump. This module turns validated
// GraphQL nodes into exactly those objects: the same keys in the same order (top-level keys of
// `gh` output sorted, nested ones in `gh`'s struct order), `gh`'s value conventions (`""` for a
// missing string, `app/<login>` and `is_bot` for non-user authors, zero-count reaction groups
// dropped, minimized comments kept with their reason) and nothing else.
import type {
  CommentNode,
  DiscussionNode,
  FileNode,
  IssueNode,
  LabelNode,
  PullNode,
  ReactionGroupNode,
  ReplyNode,
  ReviewNode,
} from './graphql-nodes.js';

/** A JSON value as the mirror files hold it. */
export type MirrorJson = null | boolean | number | string | MirrorJson[] | { [key: string]: MirrorJson };

/** An item's author as `gh` prints it: users with id and name, anything else as `app/<login>`. */
function itemAuthor(author: IssueNode['author']): MirrorJson {
  if (author?.id === undefined || author.id === '') {
    return { is_bot: true, login: `app/${author?.login ?? ''}` };
  }
  return { id: author.id, is_bot: false, login: author.login, name: author.name ?? '' };
}

function login(author: { login: string } | null): MirrorJson {
  return { login: author?.login ?? '' };
}

function reactionGroups(groups: readonly ReactionGroupNode[] | null): MirrorJson {
  return (groups ?? [])
    .filter((group) => group.reactors.totalCount > 0)
    .map((group) => ({ content: group.content, users: { totalCount: group.reactors.totalCount } }));
}

function label(node: LabelNode): MirrorJson {
  return { id: node.id, name: node.name, description: node.description ?? '', color: node.color };
}

function comment(node: CommentNode): MirrorJson {
  const out: { [key: string]: MirrorJson } = {
    id: node.id,
    author: login(node.author),
    authorAssociation: node.authorAssociation,
    body: node.body,
    createdAt: node.createdAt,
    includesCreatedEdit: node.includesCreatedEdit,
    isMinimized: node.isMinimized,
    minimizedReason: node.minimizedReason ?? '',
    reactionGroups: reactionGroups(node.reactionGroups),
  };
  // `gh` leaves out an empty url.
  if (node.url !== '') out.url = node.url;
  out.viewerDidAuthor = node.viewerDidAuthor;
  return out;
}

function review(node: ReviewNode): MirrorJson {
  return {
    id: node.id,
    author: login(node.author),
    authorAssociation: node.authorAssociation,
    body: node.body,
    submittedAt: node.submittedAt,
    includesCreatedEdit: node.includesCreatedEdit,
    reactionGroups: reactionGroups(node.reactionGroups),
    state: node.state,
    commit: { oid: node.commit?.oid ?? '' },
  };
}

function file(node: FileNode): MirrorJson {
  return { path: node.path, additions: node.additions, deletions: node.deletions, changeType: node.changeType };
}

function reply(node: ReplyNode): MirrorJson {
  return {
    id: node.id,
    body: node.body,
    createdAt: node.createdAt,
    url: node.url,
    author: node.author === null ? null : { login: node.author.login },
    replyTo: node.replyTo === null ? null : { id: node.replyTo.id },
  };
}

function present<T>(nodes: readonly (T | null)[] | undefined): T[] {
  return (nodes ?? []).filter((node): node is T => node !== null);
}

/** A whole connection fetched: `pageInfo` as Sepo writes it once every page was read. */
const COMPLETE_PAGE_INFO = { hasNextPage: false, endCursor: null };

/** The `gh issue view --json author,body,closedAt,comments,createdAt,labels,number,state,title,updatedAt,url` object. */
export function issueToGh(node: IssueNode): MirrorJson {
  return {
    author: itemAuthor(node.author),
    body: node.body,
    closedAt: node.closedAt,
    comments: present(node.comments.nodes).map(comment),
    createdAt: node.createdAt,
    labels: present(node.labels?.nodes).map(label),
    number: node.number,
    state: node.state,
    title: node.title,
    updatedAt: node.updatedAt,
    url: node.url,
  };
}

/** The `gh pr view --json` object with Sepo's field list (comments, reviews and files included). */
export function pullToGh(node: PullNode): MirrorJson {
  return {
    author: itemAuthor(node.author),
    baseRefName: node.baseRefName,
    body: node.body,
    closedAt: node.closedAt,
    comments: present(node.comments.nodes).map(comment),
    createdAt: node.createdAt,
    files: present(node.files?.nodes).map(file),
    headRefName: node.headRefName,
    labels: present(node.labels?.nodes).map(label),
    mergedAt: node.mergedAt,
    number: node.number,
    reviewDecision: node.reviewDecision ?? '',
    reviews: present(node.reviews?.nodes).map(review),
    state: node.state,
    title: node.title,
    updatedAt: node.updatedAt,
    url: node.url,
  };
}

/** The discussion object Sepo's sync writes (GraphQL field order, every connection complete). */
export function discussionToGh(node: DiscussionNode): MirrorJson {
  return {
    number: node.number,
    title: node.title,
    url: node.url,
    body: node.body,
    createdAt: node.createdAt,
    updatedAt: node.updatedAt,
    author: node.author === null ? null : { login: node.author.login },
    category: node.category === null ? null : { name: node.category.name },
    comments: {
      nodes: present(node.comments.nodes).map((entry) => ({
        id: entry.id,
        body: entry.body,
        createdAt: entry.createdAt,
        url: entry.url,
        author: entry.author === null ? null : { login: entry.author.login },
        replies: { nodes: present(entry.replies.nodes).map(reply), pageInfo: { ...COMPLETE_PAGE_INFO } },
      })),
      pageInfo: { ...COMPLETE_PAGE_INFO },
    },
  };
}

/**
 * The bytes of a mirror file: two-space indented JSON and one trailing newline, as Sepo writes
 * them. Keys keep the order the mapping built, so equal items always give equal bytes (an
 * unchanged item rewrites nothing).
 */
export function serializeMirrorFile(value: MirrorJson): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
}
