// Why: the public entry point of @repomem/store-git; everything exported here is documented API.
export { branchNameProblem, DEFAULT_MEMORY_BRANCH } from './branch-name.js';
export type { CommitMessage } from './commit-message.js';
export type { GitIdentity, GitSignature } from './commit-object.js';
export type { GitFileHandle, GitFileStats, GitFileSystem, GitFileSystemPromises } from './file-system.js';
export type { PromotedMemory, SessionCloseDetails } from './forensic-moments.js';
export {
  type CommitResult,
  DEFAULT_AGENT_EMAIL,
  DEFAULT_AGENT_ID,
  DEFAULT_GIT_MAX_DOCUMENT_BYTES,
  EMPTY_REVISION,
  type GitStore,
  type GitStoreOptions,
  type GitStoreTestHooks,
  type MomentOptions,
  openGitStore,
  type SessionCloseInput,
} from './git-store.js';
export type { DiffEntry, HistoryOptions, ReadAtResult, Revision, RevisionSpec, TreeDiff } from './history.js';
export { blobVersion } from './object-id.js';
