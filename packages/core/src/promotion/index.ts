// Why: barrel of promotion and quarantine (issue 26: what happens to a branch's memories when its
// pull request merges or closes unmerged).
export {
  type BranchRecordKind,
  type BranchRecordTargets,
  LEARNED_TASK_RECORD_KINDS,
  type LearnedTaskRecordKind,
} from './branch-records.js';
export {
  type PromoteBranchMemoriesOptions,
  type PromotedRecord,
  type PromotionReport,
  type PromotionVerification,
  promoteBranchMemories,
} from './promote.js';
export {
  type DeleteQuarantinedOptions,
  type DeleteQuarantinedReport,
  deleteQuarantinedMemories,
  type ListQuarantinedOptions,
  listQuarantinedMemories,
  type QuarantineBranchMemoriesOptions,
  type QuarantinedRecord,
  type QuarantineReport,
  quarantineBranchMemories,
} from './quarantine.js';
export { type ResolvedLearnedOn, type ResolveLearnedOnOptions, resolveLearnedOn } from './resolve-learned-on.js';
