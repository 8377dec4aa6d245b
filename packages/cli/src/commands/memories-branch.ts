// Why: `repomem memories promote | quarantine | quarantined | delete-quarantined` act on what was
// learned on a branch when its pull request ends (issue 26): verified memories and the task
// records (learnings, episodes, rules) of the same store move together, so this opens both
// backends (from one open of the store) and hands them to core's promotion and quarantine functions.
import {
  type CitationReader,
  deleteQuarantinedMemories,
  listQuarantinedMemories,
  promoteBranchMemories,
  quarantineBranchMemories,
  type TaskRecordBackend,
  type VerifiedMemoryBackend,
} from '@repomem/core';
import {
  describeDeleted,
  describePromotion,
  describeQuarantine,
  describeQuarantined,
} from '../format/branch-memories-output.js';
import type { MemoriesReport } from '../format/memories-output.js';
import type { CliIo } from '../io.js';
import type { MemoriesAction } from './memories-args.js';
import { reportSkippedRecords } from './task-records-open.js';

/** The branch actions of `repomem memories`. */
export type BranchAction = Extract<
  MemoriesAction,
  { readonly kind: 'promote' | 'quarantine' | 'quarantined' | 'delete-quarantined' }
>;

/** True for the actions this module runs. */
export function isBranchAction(action: MemoriesAction): action is BranchAction {
  return (
    action.kind === 'promote' ||
    action.kind === 'quarantine' ||
    action.kind === 'quarantined' ||
    action.kind === 'delete-quarantined'
  );
}

/** The branch a pull request merges into when `--into` is not given: the reader's default branch, else `main`. */
async function defaultBranchOf(reader: CitationReader | undefined, repo: string): Promise<string> {
  const names = await reader?.branches?.(repo).catch(() => undefined);
  return names?.defaultBranch ?? 'main';
}

/** Run one branch action over the verified memories and the task records of the chosen store. */
export async function runBranchAction(
  action: BranchAction,
  context: {
    readonly repo: string;
    readonly verified: VerifiedMemoryBackend;
    readonly tasks: TaskRecordBackend;
    readonly citations: CitationReader | undefined;
  },
  io: CliIo,
): Promise<MemoriesReport> {
  const { repo, verified, tasks, citations } = context;
  try {
    return await branchReport(action, { repo, verified, tasks }, citations);
  } finally {
    reportSkippedRecords(tasks, io);
  }
}

async function branchReport(
  action: BranchAction,
  targets: { readonly repo: string; readonly verified: VerifiedMemoryBackend; readonly tasks: TaskRecordBackend },
  citations: CitationReader | undefined,
): Promise<MemoriesReport> {
  const { repo } = targets;
  switch (action.kind) {
    case 'promote':
      return describePromotion(
        await promoteBranchMemories({
          ...targets,
          ref: action.ref,
          mergeCommit: action.mergeCommit,
          defaultBranch: action.into ?? (await defaultBranchOf(citations, repo)),
          ...(action.pullRequest === undefined ? {} : { pullRequest: action.pullRequest }),
          ...(citations === undefined ? {} : { citations }),
        }),
      );
    case 'quarantine':
      return describeQuarantine(
        await quarantineBranchMemories({
          ...targets,
          ref: action.ref,
          ...(action.pullRequest === undefined ? {} : { pullRequest: action.pullRequest }),
        }),
      );
    case 'quarantined':
      return describeQuarantined(
        await listQuarantinedMemories({ ...targets, ...(action.ref === undefined ? {} : { ref: action.ref }) }),
        action.ref,
      );
    case 'delete-quarantined':
      return describeDeleted(
        await deleteQuarantinedMemories({
          ...targets,
          ...(action.ref === undefined ? {} : { ref: action.ref }),
          ...(action.id === undefined ? {} : { ids: [action.id] }),
        }),
      );
  }
}
