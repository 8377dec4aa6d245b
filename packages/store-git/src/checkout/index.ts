// Why: the public surface of checkout mode (mount, commit, gates), re-exported by the package entry point.
export { commitMountedTree, DEFAULT_MOUNT_COMMIT_SUBJECT } from './commit-mounted.js';
export { DEFAULT_IGNORE_LINES, MAX_COMMIT_FILE_BYTES, SECRET_FILE_PATTERNS } from './gates.js';
export { mountMemoryBranch } from './mount.js';
export { MOUNT_MARKER_FILE } from './mount-marker.js';
export type {
  CommitMountedOptions,
  CommitMountedOutcome,
  MountedChange,
  MountOptions,
  MountOutcome,
  SkippedPath,
  SkipReason,
} from './types.js';
