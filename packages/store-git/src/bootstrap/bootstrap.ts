// Why: the memory branch is created on purpose, like Sepo's bootstrap workflow: `bootstrap` makes
// a root commit holding the seeded tree and fails clearly when the branch exists (the ref is
// created with compare-and-swap against "absent", so a concurrent creator cannot be overwritten);
// `init` is the idempotent variant that only adds missing seed files. Neither ever pushes.
import { RepomemError } from '@repomem/core';
import { assertIdentity, formatSignature, type GitIdentity, serializeCommit } from '../objects/commit-object.js';
import { GitObjectStore } from '../objects/object-store.js';
import { applyTreeEdits } from '../objects/tree-edit.js';
import { lookupPath } from '../objects/tree-walk.js';
import { branchRef, DEFAULT_MEMORY_BRANCH } from '../refs/branch-name.js';
import { compareAndSwapRef } from '../refs/ref-lock.js';
import { readRef } from '../refs/ref-store.js';
import { findCheckout } from '../repository/checked-out.js';
import { type GitFileSystem, nodeFileSystem } from '../repository/file-system.js';
import { locateRepository } from '../repository/repository.js';
import { composeCommitMessage } from '../store/commit-message.js';
import { DEFAULT_AGENT_EMAIL, DEFAULT_AGENT_ID, openGitStore } from '../store/git-store.js';
import { MEMORY_BRANCH_SEEDS, type PreparedSeed, prepareSeeds, type SeedFile } from './bootstrap-seeds.js';

/** Subject of the root commit of a bootstrapped branch. */
export const BOOTSTRAP_COMMIT_SUBJECT = 'chore(memory): bootstrap memory branch';
/** Subject of the commit `init` makes when seed files are missing. */
export const INIT_COMMIT_SUBJECT = 'chore(memory): add missing memory seed files';

/** Options of {@link bootstrapMemoryBranch} and {@link initMemoryBranch}. */
export interface BootstrapOptions {
  /** The repository: a worktree directory containing `.git`, or a bare repository. */
  readonly dir: string;
  /** Branch to create (default `agent/memory`), validated like `git check-ref-format --branch`. */
  readonly branch?: string;
  /** File system (default Node's `fs`). */
  readonly fs?: GitFileSystem;
  /** Agent id; the default author and committer are `{agentId} <agent@localhost>` (default `repomem`). */
  readonly agentId?: string;
  /** Commit author. */
  readonly author?: GitIdentity;
  /** Commit committer (default: the author). */
  readonly committer?: GitIdentity;
  /** Files of the seeded tree (default {@link MEMORY_BRANCH_SEEDS}: core's seeds and `.gitignore`). */
  readonly seed?: readonly SeedFile[];
  /** Attribution trailers (`Task-Id`...) for the commit. */
  readonly trailers?: Readonly<Record<string, string>>;
  /** Clock for the commit time (default `() => new Date()`). */
  readonly clock?: () => Date;
  /** fsync objects and the ref (default `true`). */
  readonly durable?: boolean;
  /** Allow creating a branch that a worktree has checked out as an unborn branch (default `false`). */
  readonly allowCheckedOutBranch?: boolean;
}

/** Result of {@link bootstrapMemoryBranch}. */
export interface BootstrapResult {
  /** Short branch name. */
  readonly branch: string;
  /** Full ref, e.g. `refs/heads/agent/memory`. */
  readonly ref: string;
  /** The root commit. */
  readonly commit: string;
  /** Paths of the seeded files. */
  readonly files: readonly string[];
}

/** Outcome of {@link initMemoryBranch}. */
export type InitBranchOutcome =
  /** The branch did not exist: created as by {@link bootstrapMemoryBranch}. */
  | {
      readonly status: 'created';
      readonly commit: string;
      readonly created: readonly string[];
      readonly existing: readonly string[];
    }
  /** Some seed files were missing: added in one commit on top of the tip. */
  | {
      readonly status: 'seeded';
      readonly commit: string;
      readonly created: readonly string[];
      readonly existing: readonly string[];
    }
  /** Every seed file exists: no commit. */
  | {
      readonly status: 'unchanged';
      readonly commit: string;
      readonly created: readonly string[];
      readonly existing: readonly string[];
    };

function alreadyExists(branch: string, tip: string | null): RepomemError {
  return new RepomemError(
    'CONFLICT',
    `branch ${branch} already exists${tip === null ? '' : ` (at ${tip.slice(0, 12)})`}; bootstrap only creates a new ` +
      'memory branch. Use initMemoryBranch (`repomem init`) to add missing seed files to it',
    { details: { branch, tip } },
  );
}

function identities(options: BootstrapOptions): { author: GitIdentity; committer: GitIdentity } {
  const author = assertIdentity(
    options.author ?? { name: options.agentId ?? DEFAULT_AGENT_ID, email: DEFAULT_AGENT_EMAIL },
    'author',
  );
  return { author, committer: assertIdentity(options.committer ?? author, 'committer') };
}

function assertOptions(options: BootstrapOptions, name: string): void {
  if (options === null || typeof options !== 'object') {
    throw new RepomemError('INVALID_ARGUMENT', `${name} expects an options object { dir, branch? }`);
  }
  if (options.clock !== undefined && typeof options.clock !== 'function') {
    throw new RepomemError('INVALID_ARGUMENT', 'clock must be a function returning a Date');
  }
}

/**
 * Create the memory branch as a root commit `chore(memory): bootstrap memory branch` holding the
 * seeded tree, without touching any worktree, index or HEAD. Never pushes.
 *
 * Throws `CONFLICT` ("branch agent/memory already exists") when the branch exists, `NOT_FOUND`
 * (not a git repository), `INVALID_ARGUMENT` (a branch name git rejects, bad identity, seed or
 * trailers; the branch is checked out as an unborn branch), `INVALID_PATH` (a bad seed path).
 */
export async function bootstrapMemoryBranch(options: BootstrapOptions): Promise<BootstrapResult> {
  assertOptions(options, 'bootstrapMemoryBranch');
  const branch = options.branch ?? DEFAULT_MEMORY_BRANCH;
  const ref = branchRef(branch);
  const { author, committer } = identities(options);
  const seeds: PreparedSeed[] = prepareSeeds(options.seed ?? MEMORY_BRANCH_SEEDS);
  const message = composeCommitMessage({ subject: BOOTSTRAP_COMMIT_SUBJECT, trailers: options.trailers });
  const fs = options.fs ?? nodeFileSystem;
  const layout = await locateRepository(fs, options.dir);
  const existing = await readRef(fs, layout.commondir, ref);
  if (existing !== null) throw alreadyExists(branch, existing);
  if (!options.allowCheckedOutBranch) {
    const head = await findCheckout(fs, layout, ref);
    if (head !== undefined) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `branch ${branch} is checked out as an unborn branch (${head}); creating it would leave that worktree behind. ` +
          'Switch that worktree to another branch, or pass allowCheckedOutBranch: true',
        { details: { branch, head } },
      );
    }
  }
  const durable = options.durable ?? true;
  const objects = new GitObjectStore(fs, layout.commondir, durable);
  const blobs = await Promise.all(seeds.map((seed) => objects.write('blob', seed.content)));
  const tree =
    (await applyTreeEdits(
      objects,
      null,
      seeds.map((seed, index) => ({ kind: 'put' as const, path: seed.path, oid: blobs[index] as string })),
    )) ?? (await objects.write('tree', new Uint8Array(0)));
  const now = (options.clock ?? (() => new Date()))();
  const commit = await objects.write(
    'commit',
    serializeCommit({
      tree,
      parents: [],
      author: formatSignature(author, now),
      committer: formatSignature(committer, now),
      message,
    }),
  );
  const updated = await compareAndSwapRef(
    fs,
    layout.commondir,
    {
      ref,
      expected: null,
      next: commit,
      reflog: {
        identity: formatSignature(committer, now),
        message: `commit (initial): ${BOOTSTRAP_COMMIT_SUBJECT}`,
        create: !layout.bare,
      },
    },
    { timeoutMs: 10_000, staleMs: 30_000 },
    durable,
  );
  if (updated.status === 'moved') throw alreadyExists(branch, updated.actual);
  return { branch, ref, commit, files: seeds.map((seed) => seed.path) };
}

/**
 * Idempotent initialisation: create the branch when it is missing (as {@link bootstrapMemoryBranch}
 * does), otherwise add only the seed files it lacks, in one commit `chore(memory): add missing
 * memory seed files`; no commit when nothing is missing. Existing files are never modified. Never
 * pushes. Throws like {@link bootstrapMemoryBranch}, except that an existing branch is fine.
 */
export async function initMemoryBranch(options: BootstrapOptions): Promise<InitBranchOutcome> {
  assertOptions(options, 'initMemoryBranch');
  const branch = options.branch ?? DEFAULT_MEMORY_BRANCH;
  const ref = branchRef(branch);
  const seeds = prepareSeeds(options.seed ?? MEMORY_BRANCH_SEEDS);
  const fs = options.fs ?? nodeFileSystem;
  const layout = await locateRepository(fs, options.dir);
  if ((await readRef(fs, layout.commondir, ref)) === null) {
    try {
      const created = await bootstrapMemoryBranch(options);
      return { status: 'created', commit: created.commit, created: created.files, existing: [] };
    } catch (error) {
      if (!(error instanceof RepomemError && error.code === 'CONFLICT')) throw error;
      // Created concurrently by someone else: seed what it lacks below.
    }
  }
  const { author, committer } = identities(options);
  const store = await openGitStore({
    dir: layout.dir,
    branch,
    fs,
    author,
    committer,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.durable === undefined ? {} : { durable: options.durable }),
    ...(options.allowCheckedOutBranch === undefined ? {} : { allowCheckedOutBranch: options.allowCheckedOutBranch }),
  });
  const objects = new GitObjectStore(fs, layout.commondir, false);
  try {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const tip = await store.revision();
      const tree = (await objects.readCommit(tip)).tree;
      const present = await Promise.all(
        seeds.map(async (seed) => (await lookupPath(objects, tree, seed.path)).status !== 'absent'),
      );
      const existing = seeds.filter((_, index) => present[index]).map((seed) => seed.path);
      const missing = seeds.filter((_, index) => !present[index]);
      if (missing.length === 0) return { status: 'unchanged', commit: tip, created: [], existing };
      const result = await store.commit(
        missing.map((seed) => ({
          kind: 'put' as const,
          path: seed.path,
          content: seed.content,
          expectedVersion: null,
        })),
        { subject: INIT_COMMIT_SUBJECT, trailers: options.trailers },
      );
      if (result.status === 'committed') {
        return { status: 'seeded', commit: result.commit, created: missing.map((seed) => seed.path), existing };
      }
      if (result.status === 'noop') return { status: 'unchanged', commit: tip, created: [], existing };
    }
    throw new RepomemError('CONFLICT', `${branch} kept changing while its missing seed files were added; try again`, {
      details: { branch },
    });
  } finally {
    await store.close();
  }
}
