// Why: the public entry point of @repomem/store-git; everything exported here is documented API.

export type { MomentOptions, PromotedMemory, SessionCloseDetails, SessionCloseInput } from '@repomem/core';
export type { HttpClient as GitHttpClient } from 'isomorphic-git';
export {
  BOOTSTRAP_COMMIT_SUBJECT,
  type BootstrapOptions,
  type BootstrapResult,
  bootstrapMemoryBranch,
  INIT_COMMIT_SUBJECT,
  type InitBranchOutcome,
  initMemoryBranch,
} from './bootstrap/bootstrap.js';
export { MEMORY_BRANCH_SEEDS, type SeedFile } from './bootstrap/bootstrap-seeds.js';
export * from './checkout/index.js';
export {
  createGitCitationReader,
  DEFAULT_GIT_CITATION_CACHE_SIZE,
  DEFAULT_GIT_CITATION_MAX_BYTES,
  type GitCitationReaderOptions,
} from './citations/citation-reader.js';
export { citationReaderScheme, type GitCitationTarget } from './citations/citation-reader-scheme.js';
export type { GitIdentity, GitSignature } from './objects/commit-object.js';
export { blobVersion } from './objects/object-id.js';
export { branchNameProblem, DEFAULT_MEMORY_BRANCH } from './refs/branch-name.js';
export { type ResolvedStateRef, resolveStateRef, type StateRefName } from './refs/state-ref-name.js';
export {
  decodeThreadKeyFromRef,
  encodeThreadKeyForRef,
  THREAD_STATE_REF_PREFIX,
  threadStateRef,
} from './refs/thread-state-ref.js';
export {
  type FetchOutcome,
  fetchMemoryBranch,
  type MemoryBranchRemoteOptions,
  type PushOutcome,
  pushMemoryBranch,
  type SyncMemoryBranchOptions,
  type SyncOutcome,
  syncMemoryBranch,
} from './remote/memory-branch-sync.js';
export type { ResolvedConflict } from './remote/reapply.js';
export type { RepositoryRemoteOptions } from './remote/remote-context.js';
export { DEFAULT_REMOTE, type RemoteOptions } from './remote/remote-target.js';
export {
  type FetchStateRefOptions,
  type FetchStateRefOutcome,
  fetchStateRef,
  type PushStateRefOptions,
  type PushStateRefOutcome,
  pushStateRef,
} from './remote/state-ref-remote.js';
export { githubTokenHosts } from './remote/token-scope.js';
export type { GitFileHandle, GitFileStats, GitFileSystem, GitFileSystemPromises } from './repository/file-system.js';
export { STATE_FILE } from './state/state-commit.js';
export { encodeStateKey, STATE_KEY_REF_PREFIX, stateKeyOfRef, stateKeyRef } from './state/state-key-ref.js';
export {
  type ReadStateRefOptions,
  readStateRef,
  type StateFor,
  type StateReadResult,
  type StateRefRepositoryOptions,
  type StateWriteResult,
  type WriteStateRefOptions,
  writeStateRef,
} from './state/state-refs.js';
export {
  THREAD_BUNDLE_RESTORE_STATUSES,
  THREAD_RESUME_STATUSES,
  THREAD_STATE_SCHEMA_VERSION,
  THREAD_STATUSES,
  type ThreadState,
  ThreadStateSchema,
} from './state/thread-state.js';
export type { CommitMessage } from './store/commit-message.js';
export { createGitDriver, type GitDriver, type GitDriverOptions } from './store/git-driver.js';
export {
  type CommitResult,
  DEFAULT_AGENT_EMAIL,
  DEFAULT_AGENT_ID,
  DEFAULT_GIT_MAX_DOCUMENT_BYTES,
  EMPTY_REVISION,
  type GitStore,
  type GitStoreOptions,
  type GitStoreTestHooks,
  openGitStore,
} from './store/git-store.js';
export type { DiffEntry, HistoryOptions, ReadAtResult, Revision, RevisionSpec, TreeDiff } from './store/history.js';
export { toHistoryEntry } from './store/store-history.js';
export { type GitStoreTarget, storeScheme } from './store/store-scheme.js';
export {
  SOURCE_BRANCH_TRAILER,
  SOURCE_COMMIT_TRAILER,
  sourceOfTrailers,
} from './store/write-metadata.js';
