// Why: a mirror tree written by `gh --json` (Sepo's memory branch) is real data with real ids,
// URLs and value formats; loading it into the model lets a sync be tested on it and its output
// compared file by file with what `gh` wrote. What the files do not hold (review database ids,
// comment edit times) is derived deterministically.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { RepomemError } from '@repomem/core';
import type { z } from 'zod';
import {
  type FixtureComment,
  type FixtureDiscussion,
  type FixtureIssue,
  type FixtureItemAuthor,
  type FixturePull,
  fixtureDiscussionSchema,
  fixtureIssueSchema,
  fixturePullSchema,
} from './fixture-files.js';
import { fakeOid, nodeId } from './ids.js';
import type {
  GitHubActorData,
  GitHubDiscussionCategoryData,
  GitHubDiscussionCommentData,
  GitHubDiscussionData,
  GitHubIssueCommentData,
  GitHubIssueData,
  GitHubLabelData,
  GitHubPullRequestData,
  GitHubReactionCount,
  GitHubRepositoryData,
} from './model.js';

const FILE_NAME = /^(issue|pull|discussion)-(\d+)\.json$/;

/**
 * Loads the mirror files of a fixture tree as a repository named `owner/name`. `dir` is the tree's
 * root: files are read from `github/<owner>/<name>/`, else from a flat `github/` (older trees), else
 * from `dir` itself.
 */
export async function loadFixtureRepository(
  dir: string,
  options: { readonly owner: string; readonly name: string },
): Promise<GitHubRepositoryData> {
  const folder = await mirrorFolder(dir, options);
  const names = (await readdir(folder)).filter((name) => FILE_NAME.test(name)).sort();
  const builder = new FixtureBuilder(options.owner, options.name);
  for (const file of names) {
    const [, kind] = FILE_NAME.exec(file)!;
    const text = await readFile(join(folder, file), 'utf8');
    if (kind === 'issue') builder.issue(parse(fixtureIssueSchema, text, file));
    else if (kind === 'pull') builder.pull(parse(fixturePullSchema, text, file));
    else builder.discussion(parse(fixtureDiscussionSchema, text, file));
  }
  return builder.build();
}

async function mirrorFolder(dir: string, options: { owner: string; name: string }): Promise<string> {
  for (const candidate of [join(dir, 'github', options.owner, options.name), join(dir, 'github'), dir]) {
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isDirectory() && (await readdir(candidate)).some((name) => FILE_NAME.test(name))) return candidate;
  }
  throw new RepomemError('NOT_FOUND', `No mirror files (issue-N.json, pull-N.json, discussion-N.json) under ${dir}.`);
}

function parse<S extends z.ZodType>(schema: S, text: string, file: string): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RepomemError('INVALID_DOCUMENT', `${file} is not JSON.`, { cause: error });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new RepomemError(
      'INVALID_DOCUMENT',
      `${file} is not a mirror file the loader understands: ${parsed.error.message}`,
    );
  }
  return parsed.data;
}

/** Database id from a comment URL's anchor (`#issuecomment-123`, `#discussioncomment-123`). */
function anchorId(url: string, fallback: number): number {
  const match = /-(\d+)$/.exec(url);
  return match === null ? fallback : Number(match[1]);
}

function reactionsOf(groups: FixtureComment['reactionGroups']): GitHubReactionCount[] {
  return groups
    .filter((group) => group.users.totalCount > 0)
    .map((group) => ({ content: group.content, count: group.users.totalCount }));
}

class FixtureBuilder {
  readonly #actors = new Map<string, GitHubActorData>();
  readonly #labels = new Map<string, GitHubLabelData>();
  readonly #categories = new Map<string, GitHubDiscussionCategoryData>();
  readonly #issues: GitHubIssueData[] = [];
  readonly #pulls: GitHubPullRequestData[] = [];
  readonly #discussions: GitHubDiscussionData[] = [];
  #nextId = 1;

  constructor(
    readonly owner: string,
    readonly name: string,
  ) {}

  issue(file: FixtureIssue): void {
    this.#issues.push({
      ...this.#issueLike(file, 'I'),
      state: file.state,
      stateReason: file.state === 'CLOSED' ? 'COMPLETED' : null,
    });
  }

  pull(file: FixturePull): void {
    const key = `${this.owner}/${this.name}#${file.number}`;
    const headRefOid = file.reviews[file.reviews.length - 1]?.commit.oid ?? fakeOid(`${key}:head`);
    this.#pulls.push({
      ...this.#issueLike(file, 'PR'),
      state: file.state,
      isDraft: false,
      mergedAt: file.mergedAt,
      baseRefName: file.baseRefName,
      headRefName: file.headRefName,
      baseRefOid: fakeOid(`${key}:base`),
      headRefOid,
      reviewDecision: file.reviewDecision === '' ? null : file.reviewDecision,
      commitCount: Math.max(1, new Set(file.reviews.map((review) => review.commit.oid)).size),
      reviews: file.reviews.map((review) => ({
        id: review.id,
        databaseId: this.#nextId++,
        author: review.author.login,
        authorAssociation: review.authorAssociation,
        body: review.body,
        createdAt: review.submittedAt ?? file.createdAt,
        updatedAt: review.submittedAt ?? file.createdAt,
        lastEditedAt: null,
        includesCreatedEdit: review.includesCreatedEdit,
        reactions: reactionsOf(review.reactionGroups),
        state: review.state,
        submittedAt: review.submittedAt,
        commitOid: review.commit.oid,
        comments: [],
      })),
      files: file.files.map((changed) => ({ ...changed })),
    });
  }

  discussion(file: FixtureDiscussion): void {
    const category = file.category.name;
    if (!this.#categories.has(category)) {
      this.#categories.set(category, {
        id: nodeId('DIC', `${this.owner}/${this.name}:${category}`),
        name: category,
        slug: category.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        emoji: ':speech_balloon:',
        description: null,
        isAnswerable: category === 'Q&A',
        createdAt: file.createdAt,
      });
    }
    const comment = (node: {
      id: string;
      body: string;
      createdAt: string;
      url: string;
      author: { login: string } | null;
    }): GitHubDiscussionCommentData => ({
      id: node.id,
      databaseId: anchorId(node.url, this.#nextId++),
      author: node.author?.login ?? null,
      authorAssociation: 'NONE',
      body: node.body,
      createdAt: node.createdAt,
      updatedAt: node.createdAt,
      lastEditedAt: null,
      includesCreatedEdit: false,
      reactions: [],
      isMinimized: false,
      minimizedReason: null,
      upvoteCount: 0,
      replies: [],
    });
    this.#discussions.push({
      id: nodeId('D', `${this.owner}/${this.name}/discussions/${file.number}`),
      databaseId: this.#nextId++,
      number: file.number,
      title: file.title,
      body: file.body,
      author: file.author?.login ?? null,
      category,
      createdAt: file.createdAt,
      updatedAt: file.updatedAt,
      lastEditedAt: null,
      closed: false,
      closedAt: null,
      stateReason: null,
      locked: false,
      includesCreatedEdit: false,
      upvoteCount: 0,
      answerId: null,
      labels: [],
      reactions: [],
      comments: file.comments.nodes.map((node) => ({
        ...comment(node),
        replies: node.replies.nodes.map(comment),
      })),
    });
  }

  build(): GitHubRepositoryData {
    const items = [...this.#issues, ...this.#pulls, ...this.#discussions];
    const times = items.map((item) => item.createdAt).sort();
    const updates = items.map((item) => item.updatedAt).sort();
    const slug = `${this.owner}/${this.name}`;
    return {
      id: nodeId('R', slug),
      databaseId: 1,
      owner: this.owner,
      ownerType: 'Organization',
      name: this.name,
      description: null,
      isPrivate: false,
      hasIssuesEnabled: true,
      hasDiscussionsEnabled: this.#discussions.length > 0,
      defaultBranch: 'main',
      createdAt: times[0] ?? '2020-01-01T00:00:00Z',
      updatedAt: updates[updates.length - 1] ?? '2020-01-01T00:00:00Z',
      pushedAt: updates[updates.length - 1] ?? '2020-01-01T00:00:00Z',
      viewerPermission: 'WRITE',
      actors: [...this.#actors.values()],
      labels: [...this.#labels.values()],
      discussionCategories: [...this.#categories.values()],
      issues: this.#issues.sort((a, b) => a.number - b.number),
      pullRequests: this.#pulls.sort((a, b) => a.number - b.number),
      discussions: this.#discussions.sort((a, b) => a.number - b.number),
      transfers: [],
    };
  }

  #issueLike(file: FixtureIssue | FixturePull, prefix: string) {
    for (const label of file.labels) {
      if (!this.#labels.has(label.id)) this.#labels.set(label.id, { ...label, createdAt: file.createdAt });
    }
    return {
      id: nodeId(prefix, `${this.owner}/${this.name}#${file.number}`),
      databaseId: this.#nextId++,
      number: file.number,
      title: file.title,
      body: file.body,
      author: this.#author(file.author),
      createdAt: file.createdAt,
      updatedAt: file.updatedAt,
      closedAt: file.closedAt,
      lastEditedAt: null,
      locked: false,
      includesCreatedEdit: false,
      labels: file.labels.map((label) => label.name),
      assignees: [],
      reactions: [],
      comments: file.comments.map(
        (comment): GitHubIssueCommentData => ({
          id: comment.id,
          databaseId: anchorId(comment.url, this.#nextId++),
          author: comment.author.login,
          authorAssociation: comment.authorAssociation,
          body: comment.body,
          createdAt: comment.createdAt,
          updatedAt: comment.createdAt,
          lastEditedAt: null,
          includesCreatedEdit: comment.includesCreatedEdit,
          reactions: reactionsOf(comment.reactionGroups),
          isMinimized: comment.isMinimized,
          minimizedReason: comment.isMinimized ? comment.minimizedReason : null,
        }),
      ),
    };
  }

  /** Registers an item author (`app/<slug>` with `is_bot` is a GitHub App's bot) and returns its GraphQL login. */
  #author(author: FixtureItemAuthor): string {
    const isBot = author.is_bot === true;
    const login = isBot ? author.login.replace(/^app\//, '') : author.login;
    const known = this.#actors.get(login);
    if (known === undefined || (known.id.startsWith('U_lb') && author.id !== undefined)) {
      this.#actors.set(login, {
        login,
        type: isBot ? 'Bot' : 'User',
        id: author.id ?? nodeId(isBot ? 'BOT' : 'U', login),
        databaseId: 10_000 + this.#actors.size,
        name: author.name ?? null,
        createdAt: '2020-01-01T00:00:00Z',
      });
    }
    return login;
  }
}
