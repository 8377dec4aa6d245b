// Why: every writer (the library, the CLI, the MCP server, the webhook) must record the same
// `learned_on` for the same situation, so where it comes from is decided once: what the caller
// says, else the clone the agent works in (its HEAD and current branch, asked through the
// citation reader's history capabilities, so core spawns nothing), else the GitHub Actions
// environment (`GITHUB_SHA`, and `GITHUB_HEAD_REF` or a `GITHUB_REF` naming a branch).
import type { BranchHistory } from '../scope/branch-history.js';
import { branchFromEnvironment } from '../scope/resolve-scope.js';
import { type LearnedOn, parseLearnedOnOption } from '../verified/learned-on.js';

/** Options of {@link resolveLearnedOn}. */
export interface ResolveLearnedOnOptions {
  /** Repository (`owner/name`) the history is asked about. */
  readonly repo: string;
  /** Commit given explicitly (CLI `--commit`); wins over everything else. */
  readonly commit?: string;
  /** Branch given explicitly (CLI `--learned-ref`; `refs/heads/` is stripped); wins over everything else. */
  readonly ref?: string;
  /** The clone's history: a citation reader with `ancestry` (HEAD's commit) and `branches` (current branch). */
  readonly history?: BranchHistory;
  /** Environment (`GITHUB_SHA`, `GITHUB_HEAD_REF`, `GITHUB_REF`); default none. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** Result of {@link resolveLearnedOn}: where it was learned, or why nothing is recorded. */
export type ResolvedLearnedOn =
  | {
      readonly kind: 'learned';
      readonly learnedOn: LearnedOn;
      readonly from: 'explicit' | 'clone' | 'environment' | 'mixed';
    }
  /** No commit or no branch could be found (a detached clone outside Actions): the default branch's scope. */
  | { readonly kind: 'unknown'; readonly reason: string };

const COMMIT = /^[0-9a-fA-F]{7,40}$/;

async function cloneFacts(options: ResolveLearnedOnOptions): Promise<{ commit?: string; branch?: string }> {
  const history = options.history;
  if (history === undefined) return {};
  const [head, names] = await Promise.all([
    history.ancestry?.({ repo: options.repo, commits: [] }).catch(() => undefined),
    history.branches?.(options.repo).catch(() => undefined),
  ]);
  return {
    ...(head?.kind === 'known' && COMMIT.test(head.headCommit) ? { commit: head.headCommit } : {}),
    ...(names?.current === undefined ? {} : { branch: names.current }),
  };
}

/**
 * Where a write is learned: the explicit `commit` and `ref` first, then (for what is still
 * missing) the clone's HEAD and current branch through `history`, then `GITHUB_SHA` and the
 * Actions branch (`GITHUB_HEAD_REF`, else a `GITHUB_REF` of `refs/heads/...`). `unknown` when no
 * commit or no branch is found (nothing is recorded: the default branch's scope); a detached
 * clone outside Actions records no branch rather than a guessed one. Throws `INVALID_ARGUMENT`
 * for an explicit commit or ref that is not one (never silently dropped).
 */
export async function resolveLearnedOn(options: ResolveLearnedOnOptions): Promise<ResolvedLearnedOn> {
  if (options.commit !== undefined || options.ref !== undefined) {
    // Validate what was given before looking anywhere else.
    parseLearnedOnOption({ commit: options.commit ?? '0000000', ref: options.ref ?? 'main' });
  }
  const sources = new Set<string>();
  let commit = options.commit;
  let ref = options.ref;
  if (commit !== undefined) sources.add('explicit');
  if (ref !== undefined) sources.add('explicit');
  if (commit === undefined || ref === undefined) {
    const clone = await cloneFacts(options);
    if (commit === undefined && clone.commit !== undefined) {
      commit = clone.commit;
      sources.add('clone');
    }
    if (ref === undefined && clone.branch !== undefined) {
      ref = clone.branch;
      sources.add('clone');
    }
  }
  const env = options.env ?? {};
  if (commit === undefined && env.GITHUB_SHA !== undefined && COMMIT.test(env.GITHUB_SHA)) {
    commit = env.GITHUB_SHA;
    sources.add('environment');
  }
  if (ref === undefined) {
    const fromEnv = branchFromEnvironment(env);
    if (fromEnv.kind === 'branch') {
      ref = fromEnv.branch;
      sources.add('environment');
    }
  }
  if (commit === undefined) return { kind: 'unknown', reason: 'no commit: not in a git clone and no $GITHUB_SHA' };
  if (ref === undefined) {
    return {
      kind: 'unknown',
      reason: 'no branch: the clone is on a detached HEAD and no $GITHUB_HEAD_REF or $GITHUB_REF names one',
    };
  }
  const learnedOn = parseLearnedOnOption({ commit, ref });
  if (learnedOn === undefined) return { kind: 'unknown', reason: 'no commit or branch' };
  const from = sources.size === 1 ? ([...sources][0] as 'explicit' | 'clone' | 'environment') : 'mixed';
  return { kind: 'learned', learnedOn, from };
}
