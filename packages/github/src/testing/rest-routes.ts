// Why: the few REST routes a sync calls beside GraphQL (the quota, the repository and the token's
// user), answered with GitHub's JSON shapes and error bodies, so a client's preflight checks and
// its "repository not found" and "missing permission" messages are tested against real answers.
import type { GitHubDataSet } from './data-set.js';
import type { GitHubRepositoryData } from './model.js';
import type { RateLimitBucket } from './rate-limit.js';
import { WEB_ORIGIN } from './resolvers.js';
import { canSee, type TokenGrant } from './token-grants.js';

/** A REST answer: status and JSON body. */
export interface RestAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** What REST routes need from the server. */
export interface RestContext {
  readonly data: GitHubDataSet;
  /** What the presented token may see. */
  readonly grant: TokenGrant;
  /** API origin, for the `url` fields. */
  readonly apiUrl: string;
  readonly core: RateLimitBucket;
  readonly graphql: RateLimitBucket;
}

const NOT_FOUND_DOCS = 'https://docs.github.com/rest';

/** Answers `GET /rate_limit`, `GET /user`, `GET /repos/{owner}/{repo}`; 404 for anything else. */
export function answerRest(method: string, pathname: string, context: RestContext): RestAnswer {
  if (method !== 'GET' && method !== 'HEAD') return notFound();
  if (pathname === '/rate_limit') {
    const core = context.core.toJSON();
    return {
      status: 200,
      body: { resources: { core, graphql: context.graphql.toJSON() }, rate: core },
    };
  }
  if (pathname === '/user') return { status: 200, body: userJson(context, context.grant.viewer) };
  const repoMatch = /^\/repos\/([^/]+)\/([^/]+)\/?$/.exec(pathname);
  if (repoMatch !== null) {
    const repo = context.data.repository(decodeURIComponent(repoMatch[1]!), decodeURIComponent(repoMatch[2]!));
    if (repo === undefined || !canSee(context.grant, repo.owner, repo.name)) {
      return {
        status: 404,
        body: {
          message: 'Not Found',
          documentation_url: 'https://docs.github.com/rest/repos/repos#get-a-repository',
          status: '404',
        },
      };
    }
    return { status: 200, body: repositoryJson(context, repo) };
  }
  return notFound();
}

function notFound(): RestAnswer {
  return { status: 404, body: { message: 'Not Found', documentation_url: NOT_FOUND_DOCS, status: '404' } };
}

function userJson(context: RestContext, login: string): Record<string, unknown> {
  const actor = context.data.actor(login);
  return {
    login: actor.type === 'Bot' ? `${actor.login}[bot]` : actor.login,
    id: actor.databaseId,
    node_id: actor.id,
    type: actor.type,
    name: actor.name,
    site_admin: false,
    url: `${context.apiUrl}/users/${actor.login}`,
    html_url: `${WEB_ORIGIN}/${actor.login}`,
    created_at: actor.createdAt,
  };
}

function repositoryJson(context: RestContext, repo: GitHubRepositoryData): Record<string, unknown> {
  const level = ['READ', 'TRIAGE', 'WRITE', 'MAINTAIN', 'ADMIN'].indexOf(repo.viewerPermission);
  const owner = context.data.actor(repo.owner);
  return {
    id: repo.databaseId,
    node_id: repo.id,
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    private: repo.isPrivate,
    visibility: repo.isPrivate ? 'private' : 'public',
    owner: { login: repo.owner, id: owner.databaseId, node_id: owner.id, type: repo.ownerType },
    html_url: `${WEB_ORIGIN}/${repo.owner}/${repo.name}`,
    url: `${context.apiUrl}/repos/${repo.owner}/${repo.name}`,
    description: repo.description,
    default_branch: repo.defaultBranch,
    has_issues: repo.hasIssuesEnabled,
    has_discussions: repo.hasDiscussionsEnabled,
    archived: false,
    disabled: false,
    created_at: repo.createdAt,
    updated_at: repo.updatedAt,
    pushed_at: repo.pushedAt,
    open_issues_count: repo.issues.filter((i) => i.state === 'OPEN').length,
    permissions: { admin: level >= 4, maintain: level >= 3, push: level >= 2, triage: level >= 1, pull: level >= 0 },
  };
}
