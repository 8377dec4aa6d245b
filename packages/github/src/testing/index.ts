// Why: public entry of @repomem/github/testing: a loopback GitHub API (GraphQL checked against
// GitHub's published schema, GitHub's node limits and costs, rate-limit headers, injected faults)
// with generated and fixture data, for tests and benchmarks of the mirror sync.

/** Package name, for messages. */
export const TESTING_PACKAGE_NAME = '@repomem/github/testing';

export type { ConnectionArgs, ConnectionPage, SortKey } from './connection.js';
export { decodeCursor, encodeCursor } from './connection.js';
export type {
  GitHubItemData,
  GitHubItemPatch,
  GitHubMinimizeReason,
  GitHubNewComment,
  GitHubNewItem,
  GitHubNewReview,
  GitHubNodeEntry,
  GitHubNodeType,
} from './data-set.js';
export { GitHubDataSet } from './data-set.js';
export type { LoopbackFault, LoopbackFaultOptions, LoopbackRequest } from './faults.js';
export type { GenerateRepositoryOptions } from './generate.js';
export { generateRepository } from './generate.js';
export type { GitHubGraphQLError, GitHubQueryCheck } from './graphql-endpoint.js';
export { checkGitHubQuery } from './graphql-endpoint.js';
export { loadFixtureRepository } from './load-fixture.js';
export type * from './model.js';
export { REACTION_CONTENTS } from './model.js';
export type { QueryLimits } from './query-limits.js';
export { MAX_NODES, MAX_PAGE } from './query-limits.js';
export type { LoopbackGitHub, LoopbackGitHubOptions, LoopbackStats } from './server.js';
export { startLoopbackGitHub } from './server.js';
export type { LoopbackPermissionName, LoopbackTokenOptions } from './token-grants.js';
