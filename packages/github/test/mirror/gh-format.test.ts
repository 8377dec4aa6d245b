// Why: the mirror is only useful if an agent's `jq` queries written against `gh --json` output keep
// working. Each fixture file (real `gh` output from a Sepo memory branch) is turned back into the
// GraphQL node GitHub would answer, mapped, serialised, and must come out byte for byte the same:
// same keys, same order, same value formats. The test skips when the fixture tree is absent.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type DiscussionNode,
  DiscussionNodeSchema,
  discussionToGh,
  type IssueNode,
  IssueNodeSchema,
  issueToGh,
  type PullNode,
  PullNodeSchema,
  pullToGh,
  serializeMirrorFile,
} from '../../src/index.js';

const fixtureDir = resolve(__dirname, '../../../../../shared/fixtures/sepo-memory-tree/github');
const present = existsSync(fixtureDir);
const files = present
  ? readdirSync(fixtureDir)
      .filter((name) => name.endsWith('.json'))
      .sort()
  : [];

type Json = Record<string, unknown>;

const connection = (nodes: unknown[]) => ({ nodes, pageInfo: { hasNextPage: false, endCursor: null } });

function itemAuthor(author: Json | null): unknown {
  if (author === null) return null;
  if (author.is_bot === true) return { login: String(author.login).replace(/^app\//, '') };
  return { login: author.login, id: author.id, name: author.name };
}

function reactions(groups: Json[]): unknown {
  return groups.map((group) => ({ content: group.content, reactors: (group as { users: unknown }).users }));
}

function comment(entry: Json): unknown {
  return {
    ...entry,
    minimizedReason: entry.minimizedReason === '' ? null : entry.minimizedReason,
    reactionGroups: reactions(entry.reactionGroups as Json[]),
  };
}

function labels(entries: Json[]): unknown {
  return connection(
    entries.map((entry) => ({ ...entry, description: entry.description === '' ? null : entry.description })),
  );
}

function issueNode(file: Json): IssueNode {
  return IssueNodeSchema.parse({
    ...file,
    id: `I_${file.number}`,
    author: itemAuthor(file.author as Json | null),
    labels: labels(file.labels as Json[]),
    comments: connection((file.comments as Json[]).map(comment)),
  });
}

function pullNode(file: Json): PullNode {
  return PullNodeSchema.parse({
    ...file,
    id: `PR_${file.number}`,
    author: itemAuthor(file.author as Json | null),
    reviewDecision: file.reviewDecision === '' ? null : file.reviewDecision,
    labels: labels(file.labels as Json[]),
    comments: connection((file.comments as Json[]).map(comment)),
    reviews: connection(
      (file.reviews as Json[]).map((review) => ({
        ...review,
        reactionGroups: reactions(review.reactionGroups as Json[]),
      })),
    ),
    files: connection(file.files as Json[]),
  });
}

function discussionNode(file: Json): DiscussionNode {
  const comments = file.comments as { nodes: Json[] };
  return DiscussionNodeSchema.parse({
    ...file,
    id: `D_${file.number}`,
    comments: connection(
      comments.nodes.map((entry) => ({ ...entry, replies: connection((entry.replies as { nodes: Json[] }).nodes) })),
    ),
  });
}

describe.skipIf(!present)('gh-format mapping against the fixture mirror files', () => {
  it('covers every kind of file', () => {
    const kinds = new Set(files.map((name) => name.split('-')[0]));
    expect([...kinds].sort()).toEqual(['discussion', 'issue', 'pull']);
  });

  it.each(files)('%s comes out byte for byte as gh wrote it', (name) => {
    const text = readFileSync(join(fixtureDir, name), 'utf8');
    const file = JSON.parse(text) as Json;
    const kind = name.split('-')[0];
    const mapped =
      kind === 'issue'
        ? issueToGh(issueNode(file))
        : kind === 'pull'
          ? pullToGh(pullNode(file))
          : discussionToGh(discussionNode(file));
    expect(new TextDecoder().decode(serializeMirrorFile(mapped))).toBe(text);
  });
});

describe('gh-format conventions', () => {
  const base = {
    id: 'I_1',
    number: 1,
    title: 't',
    body: '',
    url: 'https://github.com/o/r/issues/1',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-02T00:00:00Z',
    state: 'OPEN',
    closedAt: null,
    labels: connection([]),
  };
  const reactionGroups = [
    { content: 'THUMBS_UP', reactors: { totalCount: 0 } },
    { content: 'EYES', reactors: { totalCount: 2 } },
  ];

  it('prints non-user and deleted authors as gh does, drops empty reaction groups, keeps minimized comments', () => {
    const node = IssueNodeSchema.parse({
      ...base,
      author: null,
      comments: connection([
        {
          id: 'IC_1',
          author: null,
          authorAssociation: 'NONE',
          body: 'hidden',
          createdAt: '2026-01-01T00:00:00Z',
          includesCreatedEdit: false,
          isMinimized: true,
          minimizedReason: 'spam',
          reactionGroups,
          url: 'https://github.com/o/r/issues/1#issuecomment-1',
          viewerDidAuthor: false,
        },
      ]),
    });
    const out = issueToGh(node) as Json;
    expect(out.author).toEqual({ is_bot: true, login: 'app/' });
    expect(out.comments).toEqual([
      expect.objectContaining({
        author: { login: '' },
        isMinimized: true,
        minimizedReason: 'spam',
        body: 'hidden',
        reactionGroups: [{ content: 'EYES', users: { totalCount: 2 } }],
      }),
    ]);
    const bot = issueToGh(
      IssueNodeSchema.parse({ ...base, author: { login: 'renovate' }, comments: connection([]) }),
    ) as Json;
    expect(bot.author).toEqual({ is_bot: true, login: 'app/renovate' });
    const user = issueToGh(
      IssueNodeSchema.parse({ ...base, author: { login: 'ada', id: 'U_1', name: null }, comments: connection([]) }),
    ) as Json;
    expect(Object.keys(user.author as Json)).toEqual(['id', 'is_bot', 'login', 'name']);
    expect(user.author).toEqual({ id: 'U_1', is_bot: false, login: 'ada', name: '' });
  });

  it('serialises the same item to the same bytes', () => {
    const node = IssueNodeSchema.parse({
      ...base,
      author: { login: 'ada', id: 'U_1', name: 'Ada' },
      comments: connection([]),
    });
    expect(serializeMirrorFile(issueToGh(node))).toEqual(serializeMirrorFile(issueToGh(structuredClone(node))));
  });
});
