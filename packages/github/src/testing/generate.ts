// Why: tests and benchmarks need repositories of any size with the shape of real ones (shared
// issue/pull request numbering, comments with reactions and minimized ones, reviews, changed files,
// discussions with replies and answers). The generator is seeded: the same options always give
// the same repository, byte for byte, so failures reproduce.
import { RepomemError } from '@repomem/core';
import { fakeOid, gitHubTime, nodeId, seededRandom } from './ids.js';
import type {
  GitHubActorData,
  GitHubAuthorAssociation,
  GitHubChangedFileData,
  GitHubDiscussionCategoryData,
  GitHubDiscussionCommentData,
  GitHubDiscussionData,
  GitHubIssueCommentData,
  GitHubIssueData,
  GitHubLabelData,
  GitHubPullRequestData,
  GitHubReactionCount,
  GitHubRepositoryData,
  GitHubReviewData,
} from './model.js';

/** Options of {@link generateRepository}. */
export interface GenerateRepositoryOptions {
  readonly owner: string;
  readonly name: string;
  /** Number of issues. */
  readonly issues: number;
  /** Number of pull requests (numbered with the issues, as on GitHub). */
  readonly pullRequests: number;
  /** Number of discussions (default 0). */
  readonly discussions?: number;
  /** Comments on each issue, pull request and discussion (default 3). */
  readonly commentsPerItem?: number;
  /** Reviews on each pull request (default 2). */
  readonly reviewsPerPull?: number;
  /** Changed files of each pull request (default 3). */
  readonly filesPerPull?: number;
  /** Seed (default 1): the same options and seed give the same repository. */
  readonly seed?: number;
  /** Discussions enabled (default: true when `discussions` > 0). */
  readonly hasDiscussions?: boolean;
}

const START = Date.parse('2025-01-01T00:00:00Z');
/** Items are created before this, so even the largest repository has no timestamp in the future. */
const LAST_CREATED = Date.parse('2025-12-01T00:00:00Z');
const HOUR = 3_600_000;
const LABELS = ['bug', 'enhancement', 'documentation', 'question', 'priority/p1', 'effort/low'];
const CATEGORIES = ['General', 'Ideas', 'Q&A', 'Announcements'];
const WORDS = 'sync memory cursor page review branch cache token schema mirror agent commit query label thread'.split(
  ' ',
);

/** A repository of generated issues, pull requests and discussions. */
export function generateRepository(options: GenerateRepositoryOptions): GitHubRepositoryData {
  for (const [name, value] of Object.entries({
    issues: options.issues,
    pullRequests: options.pullRequests,
    discussions: options.discussions ?? 0,
    commentsPerItem: options.commentsPerItem ?? 0,
    reviewsPerPull: options.reviewsPerPull ?? 0,
    filesPerPull: options.filesPerPull ?? 0,
  })) {
    if (!Number.isInteger(value) || value < 0) {
      throw new RepomemError('INVALID_ARGUMENT', `${name} must be a non-negative integer (got ${value}).`);
    }
  }
  const { owner, name } = options;
  const slug = `${owner}/${name}`;
  const random = seededRandom(options.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const words = (count: number): string => Array.from({ length: count }, () => pick(WORDS)).join(' ');
  const commentsPerItem = options.commentsPerItem ?? 3;
  const reviewsPerPull = options.reviewsPerPull ?? 2;
  const filesPerPull = options.filesPerPull ?? 3;
  const discussionCount = options.discussions ?? 0;
  let databaseId = 1_000_000 + Math.floor(random() * 1000) * 10_000;

  const users: GitHubActorData[] = [
    ...['alice', 'bob', 'carol', 'dave'].map((login, i) => ({
      login: `${owner}-${login}`,
      type: 'User' as const,
      id: nodeId('U', `${owner}-${login}`),
      databaseId: 5000 + i,
      name: `${login[0]!.toUpperCase()}${login.slice(1)} Example`,
      createdAt: '2020-01-01T00:00:00Z',
    })),
    {
      login: `${name}-bot`,
      type: 'Bot',
      id: nodeId('BOT', `${name}-bot`),
      databaseId: 9000,
      name: null,
      createdAt: '2021-01-01T00:00:00Z',
    },
  ];
  const author = (): string => pick(users).login;
  const association = (login: string): GitHubAuthorAssociation =>
    login.endsWith('-bot') ? 'NONE' : login.endsWith('-alice') ? 'OWNER' : 'CONTRIBUTOR';
  const labels: GitHubLabelData[] = LABELS.map((label, i) => ({
    id: nodeId('LA', `${slug}:${label}`),
    name: label,
    description: i % 2 === 0 ? `About ${label}` : null,
    color: ['d73a4a', 'a2eeef', '0075ca', 'd876e3', 'b60205', 'c2e0c6'][i]!,
    createdAt: gitHubTime(START),
  }));
  const reactions = (): GitHubReactionCount[] => {
    const roll = random();
    if (roll < 0.7) return [];
    if (roll < 0.9) return [{ content: 'EYES', count: 1 }];
    return [
      { content: 'THUMBS_UP', count: 1 + Math.floor(random() * 3) },
      { content: 'HEART', count: 1 },
    ];
  };
  const itemLabels = (): string[] => {
    const count = Math.floor(random() * 3);
    return [...new Set(Array.from({ length: count }, () => pick(LABELS)))];
  };
  const comments = (key: string, createdAt: number, count: number): GitHubIssueCommentData[] =>
    Array.from({ length: count }, (_, i) => {
      const login = author();
      const at = gitHubTime(createdAt + (i + 1) * 600_000);
      const minimized = random() < 0.05;
      const id = databaseId++;
      return {
        id: nodeId('IC', `${key}:${id}`),
        databaseId: id,
        author: login,
        authorAssociation: association(login),
        body: `Comment ${i + 1}: ${words(8)}`,
        createdAt: at,
        updatedAt: at,
        lastEditedAt: null,
        includesCreatedEdit: false,
        reactions: reactions(),
        isMinimized: minimized,
        minimizedReason: minimized ? 'outdated' : null,
      };
    });
  /** Item timestamps: created in number order, last updated up to 30 days later (never before its last comment). */
  const spacing = Math.min(
    HOUR,
    Math.floor((LAST_CREATED - START) / (options.issues + options.pullRequests + discussionCount + 1)),
  );
  const times = (number: number, count: number) => {
    const created = START + number * spacing;
    const lastComment = created + count * 600_000;
    const updated = Math.max(lastComment, created + Math.floor(random() * 30 * 24) * HOUR);
    return { created, updated };
  };

  const total = options.issues + options.pullRequests;
  const kinds: ('issue' | 'pull')[] = [
    ...Array.from({ length: options.issues }, () => 'issue' as const),
    ...Array.from({ length: options.pullRequests }, () => 'pull' as const),
  ];
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j]!, kinds[i]!];
  }
  const issues: GitHubIssueData[] = [];
  const pullRequests: GitHubPullRequestData[] = [];
  for (let number = 1; number <= total; number++) {
    const kind = kinds[number - 1]!;
    const key = `${slug}#${number}`;
    const { created, updated } = times(number, commentsPerItem);
    const login = author();
    const common = {
      databaseId: databaseId++,
      number,
      title: `${kind === 'issue' ? 'Issue' : 'Pull request'} ${number}: ${words(4)}`,
      body: `${words(20)}\n\n${words(12)}`,
      author: login,
      createdAt: gitHubTime(created),
      updatedAt: gitHubTime(updated),
      lastEditedAt: null,
      locked: false,
      includesCreatedEdit: false,
      labels: itemLabels(),
      assignees: random() < 0.3 ? [author()] : [],
      reactions: reactions(),
      comments: comments(key, created, commentsPerItem),
    };
    if (kind === 'issue') {
      const closed = random() < 0.5;
      issues.push({
        ...common,
        id: nodeId('I', key),
        state: closed ? 'CLOSED' : 'OPEN',
        stateReason: closed ? 'COMPLETED' : null,
        closedAt: closed ? gitHubTime(updated) : null,
      });
      continue;
    }
    const roll = random();
    const state = roll < 0.6 ? 'MERGED' : roll < 0.75 ? 'CLOSED' : 'OPEN';
    const headRefOid = fakeOid(`${key}:head`);
    const reviews: GitHubReviewData[] = Array.from({ length: reviewsPerPull }, (_, i) => {
      const reviewer = author();
      const at = gitHubTime(created + (i + 1) * 900_000);
      const id = databaseId++;
      const reviewState = i === reviewsPerPull - 1 && state === 'MERGED' ? 'APPROVED' : 'COMMENTED';
      return {
        id: nodeId('PRR', `${key}:${id}`),
        databaseId: id,
        author: reviewer,
        authorAssociation: association(reviewer),
        body: random() < 0.3 ? '' : `Review ${i + 1}: ${words(10)}`,
        createdAt: at,
        updatedAt: at,
        lastEditedAt: null,
        includesCreatedEdit: false,
        reactions: reactions(),
        state: reviewState,
        submittedAt: at,
        commitOid: headRefOid,
        comments: [],
      };
    });
    const files: GitHubChangedFileData[] = Array.from({ length: filesPerPull }, (_, i) => ({
      path: `src/${pick(WORDS)}/${pick(WORDS)}-${i}.ts`,
      additions: Math.floor(random() * 200),
      deletions: Math.floor(random() * 50),
      changeType: random() < 0.2 ? 'ADDED' : 'MODIFIED',
    }));
    pullRequests.push({
      ...common,
      id: nodeId('PR', key),
      state,
      isDraft: state === 'OPEN' && random() < 0.2,
      closedAt: state === 'OPEN' ? null : gitHubTime(updated),
      mergedAt: state === 'MERGED' ? gitHubTime(updated) : null,
      baseRefName: 'main',
      headRefName: `feature/${number}-${pick(WORDS)}`,
      baseRefOid: fakeOid(`${key}:base`),
      headRefOid,
      reviewDecision: state === 'MERGED' && reviewsPerPull > 0 ? 'APPROVED' : null,
      commitCount: 1 + Math.floor(random() * 5),
      reviews,
      files,
    });
  }

  const hasDiscussions = options.hasDiscussions ?? discussionCount > 0;
  const categories: GitHubDiscussionCategoryData[] = hasDiscussions
    ? CATEGORIES.map((category, i) => ({
        id: nodeId('DIC', `${slug}:${category}`),
        name: category,
        slug: category.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
        emoji: ':speech_balloon:',
        description: `${category} discussions`,
        isAnswerable: category === 'Q&A',
        createdAt: gitHubTime(START + i * 1000),
      }))
    : [];
  const discussions: GitHubDiscussionData[] = [];
  for (let number = 1; hasDiscussions && number <= discussionCount; number++) {
    const key = `${slug}/discussions/${number}`;
    const { created, updated } = times(total + number, commentsPerItem * 2);
    const category = pick(CATEGORIES);
    const discussionComments: GitHubDiscussionCommentData[] = comments(key, created, commentsPerItem).map(
      (comment, i) => ({
        ...comment,
        id: nodeId('DC', `${key}:${comment.databaseId}`),
        upvoteCount: Math.floor(random() * 3),
        replies:
          i % 2 === 0
            ? [
                {
                  ...comments(`${key}:reply`, Date.parse(comment.createdAt), 1)[0]!,
                  upvoteCount: 0,
                  replies: [],
                },
              ].map((reply) => ({ ...reply, id: nodeId('DC', `${key}:${reply.databaseId}`) }))
            : [],
      }),
    );
    const closed = random() < 0.2;
    discussions.push({
      id: nodeId('D', key),
      databaseId: databaseId++,
      number,
      title: `Discussion ${number}: ${words(4)}`,
      body: words(25),
      author: author(),
      category,
      createdAt: gitHubTime(created),
      updatedAt: gitHubTime(updated),
      lastEditedAt: null,
      closed,
      closedAt: closed ? gitHubTime(updated) : null,
      stateReason: closed ? 'RESOLVED' : null,
      locked: false,
      includesCreatedEdit: false,
      upvoteCount: Math.floor(random() * 5),
      answerId: category === 'Q&A' ? (discussionComments[0]?.id ?? null) : null,
      labels: itemLabels(),
      reactions: reactions(),
      comments: discussionComments,
    });
  }

  const lastUpdate = Math.max(
    START,
    ...[...issues, ...pullRequests, ...discussions].map((item) => Date.parse(item.updatedAt)),
  );
  return {
    id: nodeId('R', slug),
    databaseId: 100_000 + Math.floor(random() * 100_000),
    owner,
    ownerType: 'User',
    name,
    description: `Generated repository ${slug}`,
    isPrivate: false,
    hasIssuesEnabled: true,
    hasDiscussionsEnabled: hasDiscussions,
    defaultBranch: 'main',
    createdAt: gitHubTime(START),
    updatedAt: gitHubTime(lastUpdate),
    pushedAt: gitHubTime(lastUpdate),
    viewerPermission: 'ADMIN',
    actors: users,
    labels,
    discussionCategories: categories,
    issues,
    pullRequests,
    discussions,
    transfers: [],
  };
}
