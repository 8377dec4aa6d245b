// Why: the options and outcome unions of checkout mode in one place, so `mount` and `commit`
// report skipped paths, changes and conflicts in the same shapes.

import type { GitIdentity } from '../objects/commit-object.js';
import type { GitFileSystem } from '../repository/file-system.js';
import type { CommitMessage } from '../store/commit-message.js';

/**
 * Why a path was not committed (or not materialised): `too_large` (over the size gate), `secret`
 * (a secret file name), `ignored` (the `.gitignore` rules), `symlink` (symbolic links are never
 * followed or committed), `submodule` (a submodule entry in the branch), `special` (a FIFO, socket
 * or device), `invalid_path` (a name no document path can have, such as `..`, `.git` or a backslash).
 */
export type SkipReason = 'too_large' | 'secret' | 'ignored' | 'symlink' | 'submodule' | 'special' | 'invalid_path';

/** A path left out, with the reason and a human-readable warning. */
export interface SkippedPath {
  /** Path relative to the mount (`dir/` for a whole directory). */
  readonly path: string;
  readonly reason: SkipReason;
  /** Warning text, e.g. `skipped big.bin: 1048577 bytes is over the 1048576-byte limit`. */
  readonly message: string;
}

/** One document a commit added, modified or deleted. */
export interface MountedChange {
  readonly path: string;
  readonly status: 'added' | 'modified' | 'deleted';
}

/** Options of `mountMemoryBranch`. */
export interface MountOptions {
  /** The repository: a worktree directory containing `.git`, or a bare repository. */
  readonly dir: string;
  /** Branch to mount (default `agent/memory`); it must exist (see `initMemoryBranch`). */
  readonly branch?: string;
  /** Directory to materialise the branch into (created when missing). */
  readonly into: string;
  /** File system for the repository and the mount (default Node's `fs`). */
  readonly fs?: GitFileSystem;
}

/** Outcome of `mountMemoryBranch`. */
export type MountOutcome =
  | {
      readonly status: 'mounted';
      /** Absolute mount directory. */
      readonly into: string;
      /** The commit the mount now reflects. */
      readonly commit: string;
      /** `true` for a new mount; `false` when an existing mount of the branch was brought up to the tip. */
      readonly fresh: boolean;
      /** Files written (all of them for a fresh mount; those changed on the branch for a refresh). */
      readonly written: readonly string[];
      /** Files removed from the mount because the branch deleted them (refresh only). */
      readonly removed: readonly string[];
      /** Branch entries not materialised (symlinks, submodules, unsafe names). */
      readonly skipped: readonly SkippedPath[];
    }
  | {
      /** An existing mount holds local edits to paths the branch also changed since: nothing was written. */
      readonly status: 'conflict';
      readonly into: string;
      readonly paths: readonly string[];
    };

/** Options of `commitMountedTree`. */
export interface CommitMountedOptions {
  /** The mount directory (holding `.repomem-mount.json`). */
  readonly into: string;
  /** Commit message: a string (first line subject, rest body) or parts; default `chore(memory): update memory`. */
  readonly message?: string | CommitMessage;
  /** Attribution trailers (`Task-Id`, `Prompt-Version`, `Thread-Key`), added to the message's own. */
  readonly trailers?: Readonly<Record<string, string>>;
  /** Agent id; the default author is `{agentId} <agent@localhost>`. */
  readonly agentId?: string;
  /** Commit author. */
  readonly author?: GitIdentity;
  /** Commit committer (default: the author). */
  readonly committer?: GitIdentity;
  /** File system (default Node's `fs`). */
  readonly fs?: GitFileSystem;
  /** Size gate in bytes (default 1 MiB). */
  readonly maxFileBytes?: number;
  /** fsync objects and the ref (default `true`). */
  readonly durable?: boolean;
  /** Clock for commit times. */
  readonly clock?: () => Date;
  /** Allow committing to a branch that is checked out in a worktree (default `false`). */
  readonly allowCheckedOutBranch?: boolean;
}

/** Outcome of `commitMountedTree`. */
export type CommitMountedOutcome =
  | {
      readonly status: 'committed';
      /** The new commit (the branch tip). */
      readonly commit: string;
      /** Its parent: the tip the changes were applied on. */
      readonly parent: string;
      /** Documents changed by this commit. */
      readonly changed: readonly MountedChange[];
      /** Paths others changed on the branch since the mount, now written into the mount. */
      readonly merged: readonly string[];
      readonly skipped: readonly SkippedPath[];
    }
  | {
      /** No committable change (no empty commit is made). */
      readonly status: 'nothing_to_commit';
      /** The commit the mount reflects. */
      readonly commit: string;
      readonly skipped: readonly SkippedPath[];
    }
  | {
      /** The branch moved since the mount and changed some of the same paths differently: nothing was committed. */
      readonly status: 'conflict';
      readonly paths: readonly string[];
      readonly skipped: readonly SkippedPath[];
    };
