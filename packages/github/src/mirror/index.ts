// Why: the public surface of the GitHub mirror: the sync, its result and progress types, the
// legacy-layout migration, and the pure pieces (paths, `gh`-format mapping) other tools reuse.

export type { FittedMirrorFile } from './fit-mirror-file.js';
export { fitMirrorFile, MIRROR_TRUNCATION_MARKER } from './fit-mirror-file.js';
export type { MirrorJson } from './gh-format.js';
export { discussionToGh, issueToGh, pullToGh, serializeMirrorFile } from './gh-format.js';
export type { AccessFailureDetails, MirrorInterruption } from './github-failure.js';
export type { DiscussionNode, IssueNode, PullNode } from './graphql-nodes.js';
export { DiscussionNodeSchema, IssueNodeSchema, PullNodeSchema } from './graphql-nodes.js';
export type { MirrorLane } from './graphql-selections.js';
export { MIRROR_LANES } from './graphql-selections.js';
export type { LegacyMigrationResult, LegacyMigrationStep } from './legacy-migration.js';
export { migrateLegacyMirror } from './legacy-migration.js';
export type { GitHubQuota } from './mirror-client.js';
export type { MirrorRepository } from './mirror-paths.js';
export { mirrorPath, mirrorPrefix, parseMirrorFileName, parseMirrorRepository } from './mirror-paths.js';
export { SYNC_STATE_KEY } from './mirror-state.js';
export type {
  GitHubMirrorProgress,
  GitHubMirrorSyncOptions,
  GitHubMirrorSyncResult,
  GitHubMirrorSyncSummary,
  LaneCounts,
} from './sync-github-mirror.js';
export { syncGitHubMirror } from './sync-github-mirror.js';
export type { VanishedReport } from './vanished-items.js';
