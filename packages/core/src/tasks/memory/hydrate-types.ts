// Why: the options and result of `hydrate` are the public face of task-start memory; declared
// once, so the CLI, the agent-loop example and the docs agree on every field and outcome.
import type { BranchHistory } from '../../scope/branch-history.js';
import type { VerifiedMemoryService } from '../../verified/service-types.js';
import type { TaskRecordBackend } from '../record-backend.js';
import type { MemoryFailure } from './failure.js';
import type { SemanticScorer } from './hydrate-relevance.js';
import type { ContextReceipt, ContextSource, ReceiptItem } from './receipt.js';
import type { TokenEstimator } from './token-estimate.js';

/** The task hydration is for. */
export interface HydrateTask {
  /** Task id: excludes the task's own episode, keys the stored receipt. */
  readonly id?: string;
  /** Task description: its words (and meaning, with `semantic`) rank every memory. */
  readonly description: string;
  /**
   * Files the task is about (changed or named), besides those its description names: a memory
   * scoped to a directory holding one of them is relevant.
   */
  readonly files?: readonly string[];
  /** GitHub login of the submitting user (their preferences are read). */
  readonly user?: string;
}

/** Options of `hydrate`. */
export interface HydrateOptions {
  /** Where task records (episodes, rules, preferences, knowledge) live. */
  readonly backend: TaskRecordBackend;
  /** Repository `owner/name`. */
  readonly repo: string;
  /** The task. */
  readonly task: HydrateTask;
  /**
   * Verified memories (`openVerifiedMemory` with a citation reader): `recall` verifies each
   * against the code before it is offered. Omit to skip the source.
   */
  readonly verified?: Pick<VerifiedMemoryService, 'recall'>;
  /** Budget in estimated tokens (default 2,000). */
  readonly budgetTokens?: number;
  /** Token estimator (default `chars/4`, {@link TokenEstimator}). */
  readonly estimator?: TokenEstimator;
  /** Timeout of each source in ms (default 5,000). */
  readonly timeoutMs?: number;
  /** Per-source timeouts (and `semantic`: the semantic scoring), overriding `timeoutMs`. */
  readonly timeouts?: Partial<Readonly<Record<ContextSource | 'semantic', number>>>;
  /**
   * Scores candidates by meaning too (a `SemanticIndex` from `createSemanticIndex`): its
   * similarity, calibrated against the candidates, is added to the lexical score, and an item
   * close in meaning clears the relevance floor without sharing a word. A failure or timeout
   * falls back to words alone (a warning or error like a source's). Without it, relevance is
   * lexical and no model is loaded.
   */
  readonly semantic?: SemanticScorer;
  /** Aborts every source (the call then settles at once). */
  readonly signal?: AbortSignal;
  /**
   * `fail-open` (default): a failing source is left out and reported (outage, throttling and
   * timeout as warnings; configuration errors, corrupt records and bugs as errors). `strict`:
   * any failure throws.
   */
  readonly mode?: 'fail-open' | 'strict';
  /**
   * Most candidates kept per source once scored (defaults: rules 100, verified 20, knowledge 50,
   * episodes 20, preferences 50); a source reads up to 100 best word matches and 100 newest.
   */
  readonly limits?: Partial<Readonly<Record<ContextSource, number>>>;
  /** Prompt version of the run, recorded in the receipt (memory excluded, see `renderPromptWithMemory`). */
  readonly promptVersion?: string;
  /** Commit of the repository the agent works on, recorded in the receipt (and the ref verified memories are checked at). */
  readonly commit?: string;
  /**
   * The branch the agent works on (branch scope, issue 26): records learned on another branch
   * are offered only when `commit`'s history (default the reader's HEAD) contains the commit
   * they were learned at; records learned on the default branch (or before branch scope) always;
   * quarantined records never. Default: `history`'s current branch.
   */
  readonly branch?: string;
  /** The repository's default branch (default: `history`'s answer, else `main`). */
  readonly defaultBranch?: string;
  /**
   * Git history for the branch scope of task records (learnings, episodes, rules): a citation
   * reader with the `ancestry` capability (the git and GitHub readers). Without it, task records
   * learned on another branch are left out (verified memories use their service's reader).
   */
  readonly history?: BranchHistory;
  /** Store the receipt as the task's `receipt` record (needs `task.id`; default `false`). */
  readonly recordReceipt?: boolean;
  /**
   * Count this task against the repository's active review rules (`noteRuleRetrievals`, needs
   * `task.id`): the rules included as relevant to the task (their words or scope match it) start
   * over, the others count one more task and expire after `expireAfterTasks` (default 50) tasks
   * without being relevant; superseded and expired rules are kept (`repomem rules list --status`). Writes every active
   * rule, so it is off by default; a failure is reported like a source's.
   */
  readonly noteRuleRetrievals?: boolean | { readonly expireAfterTasks?: number };
  /** Clock (tests). */
  readonly now?: () => Date;
}

/** A source that failed, with its classified failure. */
export interface SourceFailure extends MemoryFailure {
  /**
   * Which source (or `receipt` for recording the receipt, `rule-retrievals` for counting rule
   * retrievals, `repo` for an unusable repository name, `semantic` for the semantic scoring).
   */
  readonly source: ContextSource | 'receipt' | 'rule-retrievals' | 'repo' | 'semantic';
}

/** A review rule in the context. */
export interface ContextRule {
  readonly id: string;
  readonly rule: string;
  readonly scope?: string;
  readonly weight: number;
  readonly reviewer: string;
  readonly pr?: number;
  /** When the rule was reviewed (or, failing that, extracted), ISO 8601. */
  readonly date?: string;
}

/** A verified memory in the context (checked against the code just now). */
export interface ContextVerifiedMemory {
  readonly id: string;
  readonly subject: string;
  readonly fact: string;
  readonly scope: string | null;
  readonly citations: readonly { readonly path: string; readonly line_start: number; readonly line_end: number }[];
}

/** A repository learning in the context. */
export interface ContextKnowledge {
  readonly id: string;
  readonly subject: string;
  readonly scope: string | null;
  readonly fact: string;
  readonly insight_type: 'repo_learning' | 'agent_self_feedback';
}

/** A similar past task in the context. */
export interface ContextEpisode {
  readonly id: string;
  readonly status: string;
  readonly outcome: 'positive' | 'negative' | null;
  readonly description?: string;
  readonly approach?: string;
  readonly difficulties?: string;
  readonly pr_url?: string;
}

/** A user preference in the context. */
export interface ContextPreference {
  readonly id: string;
  readonly topic: string;
  readonly preference: string;
}

/** The structured context: what the Markdown block says, by kind, in priority order. */
export interface HydratedContext {
  readonly rules: readonly ContextRule[];
  readonly verified: readonly ContextVerifiedMemory[];
  readonly knowledge: readonly ContextKnowledge[];
  readonly episodes: readonly ContextEpisode[];
  readonly preferences: readonly ContextPreference[];
}

/** Result of `hydrate`. */
export interface HydrateResult {
  /**
   * `ok`: every source answered; `degraded`: some source failed transiently (see `warnings`);
   * `error`: some source failed for a reason someone must fix (see `errors`).
   */
  readonly status: 'ok' | 'degraded' | 'error';
  /** The structured context. */
  readonly context: HydratedContext;
  /** The Markdown block for the prompt (`''` when nothing was included). */
  readonly markdown: string;
  /** True when `markdown` holds anything (pass as `memoryAvailable` to the prompt renderer). */
  readonly memoryAvailable: boolean;
  /** The context receipt (every candidate, included or dropped and why). */
  readonly receipt: ContextReceipt;
  /** Candidates left out, with the reason (also in the receipt). */
  readonly dropped: readonly ReceiptItem[];
  /** Transient failures (outage, throttling, timeout): the context was built without them. */
  readonly warnings: readonly SourceFailure[];
  /** Failures someone must fix (configuration, corrupt records, bugs), reported even in fail-open mode. */
  readonly errors: readonly SourceFailure[];
}
