// Why: the public entry point of @repomem/store-git; everything exported here is documented API.

export type { HttpClient as GitHttpClient } from 'isomorphic-git';
export {
  BOOTSTRAP_COMMIT_SUBJECT,
  type BootstrapOptions,
  type BootstrapResult,
  bootstrapMemoryBranch,
  INIT_COMMIT_SUBJECT,
  type InitBranchOutcome,
  initMemoryBranch,
} from './bootstrap.js';
export { MEMORY_BRANCH_SEEDS, type SeedFile } from './bootstrap-seeds.js';
export { branchNameProblem, DEFAULT_MEMORY_BRANCH } from './branch-name.js';
export * from './checkout/index.js';
export {
  createGitCitationReader,
  DEFAULT_GIT_CITATION_CACHE_SIZE,
  DEFAULT_GIT_CITATION_MAX_BYTES,
  type GitCitationReaderOptions,
} from './citation-reader.js';
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
export { type ResolvedStateRef, resolveStateRef, type StateRefName } from './state-ref-name.js';
export {
  type ReadStateRefOptions,
  readStateRef,
  STATE_FILE,
  type StateFor,
  type StateReadResult,
  type StateRefRepositoryOptions,
  type StateWriteResult,
  type WriteStateRefOptions,
  writeStateRef,
} from './state-refs.js';
export {
  THREAD_BUNDLE_RESTORE_STATUSES,
  THREAD_RESUME_STATUSES,
  THREAD_STATE_SCHEMA_VERSION,
  THREAD_STATUSES,
  type ThreadState,
  ThreadStateSchema,
} from './thread-state.js';
