// Why: the memory-fs tests run the git store, isomorphic-git and the remote code on memfs, an
// in-memory file system with Node's promise API, given to them as is (no adapter), which is what
// "fs injected, a memory fs works" promises users.

import type { PromiseFsClient } from 'isomorphic-git';
import { memfs } from 'memfs';
import type { GitFileSystem } from '../../src/index.js';

/** A memfs volume and the file system object to inject (into repomem and isomorphic-git alike). */
export interface MemoryFileSystem {
  /** Give this to `openGitStore`, the remote functions and isomorphic-git (`{ promises }`, enumerable). */
  readonly fs: GitFileSystem;
  /** The same object, typed for isomorphic-git. */
  readonly isomorphicFs: PromiseFsClient;
  /** Every file in the volume, by absolute path. */
  files(): string[];
}

/** A fresh, empty in-memory file system. */
export function createMemoryFileSystem(): MemoryFileSystem {
  const { fs, vol } = memfs();
  const fileSystem = fs as unknown as GitFileSystem;
  return {
    fs: fileSystem,
    isomorphicFs: fileSystem as unknown as PromiseFsClient,
    files: () => Object.keys(vol.toJSON()).sort(),
  };
}
