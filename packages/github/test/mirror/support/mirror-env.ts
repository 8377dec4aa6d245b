// Why: the sync tests share one setup: a loopback GitHub API holding a generated repository, a
// real store of each kind (SQLite file, directory, git branch) in a fresh temporary directory, and
// the sync options pointing at the loopback (waits shortened so retries do not slow the suite).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryStore } from '@repomem/core';
import { openDirectoryStore } from '@repomem/store-fs';
import { openGitStore } from '@repomem/store-git';
import { openSqliteStore } from '@repomem/store-sqlite';
import type { GitHubMirrorSyncOptions } from '../../../src/index.js';
import type { LoopbackGitHub } from '../../../src/testing/index.js';

/** The token the loopback API accepts. */
export const TOKEN = 'loopback-token';

/** A store kind and how to open one in a directory. */
export interface StoreKind {
  readonly name: 'sqlite' | 'directory' | 'git';
  open(dir: string): Promise<MemoryStore>;
}

/** The three store kinds the sync is tested on. */
export const STORE_KINDS: readonly StoreKind[] = [
  { name: 'sqlite', open: async (dir) => openSqliteStore({ path: join(dir, 'memory.db'), repo: 'acme/app' }) },
  { name: 'directory', open: async (dir) => openDirectoryStore({ root: join(dir, 'memory'), create: true }) },
  {
    name: 'git',
    open: async (dir) => {
      const repo = join(dir, 'repo');
      execFileSync('git', ['init', '-q', '-b', 'main', repo]);
      return openGitStore({ dir: repo });
    },
  },
];

/** A fresh temporary directory, removed by the returned cleanup. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'repomem-mirror-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Sync options against `github` for `repo` into `store` (short waits). */
export function syncOptions(
  github: LoopbackGitHub,
  store: MemoryStore,
  repo = 'acme/app',
  extra: Partial<GitHubMirrorSyncOptions> = {},
): GitHubMirrorSyncOptions {
  return {
    repo,
    store,
    token: TOKEN,
    baseUrl: github.url,
    graphqlUrl: github.graphqlUrl,
    env: {},
    waitUnitMs: 5,
    ...extra,
  };
}

/** Commits on the git store's memory branch (`agent/memory`). */
export function commitCount(dir: string): number {
  try {
    return Number(
      execFileSync('git', ['-C', join(dir, 'repo'), 'rev-list', '--count', 'agent/memory'])
        .toString()
        .trim(),
    );
  } catch {
    return 0;
  }
}
