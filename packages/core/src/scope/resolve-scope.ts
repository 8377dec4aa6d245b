// Why: every read (recall, verify, search, hydration, the MCP tools) decides the ref it is scoped
// to the same way: an explicit branch, else the revision asked for when it is a branch name,
// else the branch the reader is on; the default branch from the caller, else the reader, else
// `main`. One resolver keeps them in agreement and turns a bad name into one clear error.
import { RepomemError } from '../errors.js';
import { branchName, learnedRefProblem } from '../verified/learned-on.js';
import type { BranchHistory, BranchNames } from './branch-history.js';
import { type BranchScope, FALLBACK_DEFAULT_BRANCH, parseBranchScope } from './branch-scope.js';

/** What a read says about the ref it works on (every field optional). */
export interface ScopeRequest {
  /** The revision the code is read at (a branch name here also names the scope's branch). */
  readonly ref?: string | undefined;
  /** The branch worked on, when `ref` is absent or not a branch (Actions: `GITHUB_HEAD_REF`). */
  readonly branch?: string | undefined;
  /** The repository's default branch, when the caller knows it. */
  readonly defaultBranch?: string | undefined;
}

async function namesOf(history: BranchHistory | undefined, repo: string): Promise<BranchNames> {
  if (history?.branches === undefined) return {};
  try {
    return await history.branches(repo);
  } catch {
    // Names are a convenience: without them only the history decides (fail closed, never wrong).
    return {};
  }
}

/** A commit id, full or abbreviated: a revision, not a branch (git allows such branch names; nobody uses them). */
const COMMIT_ID = /^[0-9a-f]{7,64}$/;

/** `ref` as a branch name, or `undefined` when it is not one (`HEAD`, `HEAD~2`, a commit id). */
function refAsBranch(ref: string): string | undefined {
  const name = branchName(ref.trim());
  return learnedRefProblem(name) === undefined && !COMMIT_ID.test(name) ? name : undefined;
}

/**
 * The {@link BranchScope} of a read: branch = `request.branch`, else `request.ref` when it is a
 * branch name, else the reader's current branch (unknown when detached); head = `request.ref`
 * (else the reader's default); default branch = `request.defaultBranch`, else the reader's, else
 * `main`. Throws `INVALID_ARGUMENT` for a `branch` or `defaultBranch` that is not a branch name,
 * or a blank `ref`.
 */
export async function resolveBranchScope(
  request: ScopeRequest,
  history: BranchHistory | undefined,
  repo: string,
): Promise<BranchScope> {
  const { ref, branch, defaultBranch } = request;
  if (ref !== undefined && (typeof ref !== 'string' || ref.trim() === '')) {
    throw new RepomemError('INVALID_ARGUMENT', 'invalid ref: expected a non-empty string');
  }
  const fromRef = ref === undefined ? undefined : refAsBranch(ref);
  const needNames = (branch === undefined && fromRef === undefined) || defaultBranch === undefined;
  const names = needNames ? await namesOf(history, repo) : {};
  const scopeRef = branch ?? fromRef ?? names.current;
  return parseBranchScope({
    ...(scopeRef === undefined ? {} : { ref: scopeRef }),
    ...(ref === undefined ? {} : { head: ref }),
    defaultBranch: defaultBranch ?? names.defaultBranch ?? FALLBACK_DEFAULT_BRANCH,
  });
}

/** The branch GitHub Actions names in `env`, or why it is not a branch name. */
export type EnvironmentBranch =
  | { readonly kind: 'branch'; readonly branch: string; readonly variable: 'GITHUB_HEAD_REF' | 'GITHUB_REF' }
  | { readonly kind: 'none' }
  | { readonly kind: 'invalid'; readonly variable: 'GITHUB_HEAD_REF' | 'GITHUB_REF'; readonly message: string };

/**
 * The branch an Actions run works on: `GITHUB_HEAD_REF` (pull-request events, where the checkout
 * is a merge commit), else `GITHUB_REF` when it is `refs/heads/<branch>` (a tag or
 * `refs/pull/...` names no branch); `none` outside Actions (then the clone's current branch
 * applies). A value that is not a branch name is `invalid`, with a message naming the variable.
 */
export function branchFromEnvironment(env: Readonly<Record<string, string | undefined>>): EnvironmentBranch {
  const named = (variable: 'GITHUB_HEAD_REF' | 'GITHUB_REF', value: string): EnvironmentBranch => {
    const branch = branchName(value);
    const problem = learnedRefProblem(branch);
    return problem === undefined
      ? { kind: 'branch', branch, variable }
      : {
          kind: 'invalid',
          variable,
          message: `$${variable} ${JSON.stringify(env[variable])} is not a branch name: it ${problem}`,
        };
  };
  const head = env.GITHUB_HEAD_REF;
  if (head !== undefined && head !== '') return named('GITHUB_HEAD_REF', head);
  const ref = env.GITHUB_REF;
  if (ref?.startsWith('refs/heads/')) return named('GITHUB_REF', ref);
  return { kind: 'none' };
}
