// Why: seed 004's loadMemoryContext, on any store: at task start read every memory source in
// parallel (each with its own timeout and abort), fill a token budget in a documented order,
// render the block for the prompt, and say exactly what was loaded and what was left out (the
// context receipt). Memory is an enrichment: a failing source degrades the context, never the
// task, but a configuration mistake is reported as an error rather than hidden as an outage.
import { isRepoSlug } from '../../envelope/fields.js';
import { RepomemError } from '../../errors.js';
import { type BranchScope, scopeVerdicts } from '../../scope/branch-scope.js';
import { resolveBranchScope } from '../../scope/resolve-scope.js';
import { tokenizeQuery } from '../../search/tokenizer.js';
import { noteRuleRetrievals } from '../rules/rule-book.js';
import { classifyMemoryFailure } from './failure.js';
import { fillBudget } from './hydrate-budget.js';
import { relevanceQuery, scoreRelevance } from './hydrate-relevance.js';
import { renderMemoryBlock } from './hydrate-render.js';
import { scoreCandidates } from './hydrate-score.js';
import {
  CANDIDATE_POOL,
  type Candidate,
  DEFAULT_SOURCE_LIMITS,
  SOURCE_READERS,
  type SourceRead,
} from './hydrate-sources.js';
import type { HydratedContext, HydrateOptions, HydrateResult, SourceFailure } from './hydrate-types.js';
import {
  CONTEXT_SOURCES,
  type ContextReceipt,
  type ContextSource,
  type ReceiptSource,
  recordReceipt,
} from './receipt.js';
import { CHARS_PER_TOKEN_ESTIMATOR, DEFAULT_HYDRATION_BUDGET_TOKENS } from './token-estimate.js';
import { runWithTimeout } from './with-timeout.js';

/** Default timeout of each source, in milliseconds (seed: 5 seconds). */
export const DEFAULT_SOURCE_TIMEOUT_MS = 5000;
/** Most search words taken from a task description. */
export const MAX_QUERY_TERMS_FROM_TASK = 32;

/** Common English words left out of the search words of a task description. */
const STOP_WORDS = new Set(
  'a an and are as at be been but by can could do does for from has have how i if in into is it its make me my no not of on or our please should so that the their then there these this to up us was we were what when where which while who why will with would you your add fix update use new'.split(
    ' ',
  ),
);

/** Common English words left out of a task's search and relevance words. */
export const TASK_STOP_WORDS: ReadonlySet<string> = STOP_WORDS;

/** Search words of a task description: core's query words without common English words, at most 32. */
export function taskQueryTerms(description: string): string[] {
  return tokenizeQuery(description.slice(0, 8000))
    .filter((term) => !STOP_WORDS.has(term))
    .slice(0, MAX_QUERY_TERMS_FROM_TASK);
}

function positiveInteger(value: number | undefined, fallback: number, name: string, allowZero = false): number {
  const resolved = value ?? fallback;
  if (!Number.isSafeInteger(resolved) || resolved < (allowZero ? 0 : 1)) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got ${String(value)}`,
    );
  }
  return resolved;
}

function emptyContext(): HydratedContext {
  return { rules: [], verified: [], knowledge: [], episodes: [], preferences: [] };
}

function buildContext(included: ReadonlyMap<ContextSource, readonly Candidate[]>): HydratedContext {
  const context = {
    rules: [] as HydratedContext['rules'][number][],
    verified: [] as HydratedContext['verified'][number][],
    knowledge: [] as HydratedContext['knowledge'][number][],
    episodes: [] as HydratedContext['episodes'][number][],
    preferences: [] as HydratedContext['preferences'][number][],
  };
  for (const candidates of included.values()) {
    for (const { entry } of candidates) {
      if (entry.source === 'rules') context.rules.push(entry.value);
      else if (entry.source === 'verified') context.verified.push(entry.value);
      else if (entry.source === 'knowledge') context.knowledge.push(entry.value);
      else if (entry.source === 'episodes') context.episodes.push(entry.value);
      else context.preferences.push(entry.value);
    }
  }
  return context;
}

function strictError(failures: readonly SourceFailure[], errors: readonly unknown[]): Error {
  const first = errors[0];
  if (first instanceof RepomemError) return first;
  const summary = failures.map((failure) => `${failure.source}: ${failure.category} (${failure.message})`).join('; ');
  return new RepomemError('BACKEND_UNAVAILABLE', `memory hydration failed in strict mode: ${summary}`, {
    cause: first,
    details: { failures },
  });
}

/**
 * Build the memory context of a task (seed 004 phase 1).
 *
 * Sources, read in parallel, each with its own timeout (default 5 s) and abort signal: review
 * rules (every active rule), verified memories (`recall`: only those whose citations still
 * hold), repository knowledge (learnings and self-feedback), similar past tasks (episodes; the
 * task's own is skipped) and the user's preferences. Knowledge and episodes offer the records
 * holding a word of the task and the newest ones (up to 100 of each), so inflections and
 * paraphrases are still scored.
 *
 * Relevance (`hydrate-relevance.ts`): every candidate is scored on one scale, BM25 over the
 * candidates with light inflection folding, a bonus when its scope holds a file the task names
 * (in `task.description` or `task.files`), and, with `semantic`, the model's similarity
 * calibrated against the candidates and added to the lexical score. Items that match nothing
 * fall below the relevance floor. A pull request closed unmerged ranks by relevance like any
 * episode; its outcome is in its line.
 *
 * Budget (default 2,000 tokens, estimated with `chars/4` unless `estimator` says otherwise): see
 * `fillBudget`: every active review rule first, then knowledge, verified memories, episodes and
 * the requesting user's preferences share the rest best first, whatever their kind. Every
 * candidate is in the receipt, included or dropped with its reason (`outranked`, `budget`,
 * `below-floor`, `duplicate`).
 *
 * Failures: in `fail-open` mode (default) a failed source is left out; outages, throttling and
 * timeouts are `warnings` (status `degraded`); configuration errors (credentials, permissions,
 * missing tables, an unusable repository name), corrupt records and bugs are `errors` (status
 * `error`). A failed semantic scoring falls back to words alone, reported the same way. In
 * `strict` mode any failure throws. The call returns within the longest source timeout (plus
 * scheduling) even when a source never answers.
 *
 * The Markdown block goes into the prompt with `renderPromptWithMemory`, whose prompt version
 * leaves the memory out. With `recordReceipt`, the receipt is stored as the task's `receipt`
 * record (a failure to store it is a warning or error like any source's).
 *
 * @throws RepomemError `INVALID_ARGUMENT` for misuse (bad budget, timeout or limits, no
 *   description); in strict mode, the first failure.
 */
export async function hydrate(options: HydrateOptions): Promise<HydrateResult> {
  if (options === null || typeof options !== 'object' || options.backend === undefined) {
    throw new RepomemError('INVALID_ARGUMENT', 'hydrate expects { backend, repo, task }');
  }
  const task = options.task;
  if (task === undefined || typeof task.description !== 'string') {
    throw new RepomemError('INVALID_ARGUMENT', 'hydrate needs task.description (a string)');
  }
  const budget = positiveInteger(options.budgetTokens, DEFAULT_HYDRATION_BUDGET_TOKENS, 'budgetTokens', true);
  const defaultTimeout = positiveInteger(options.timeoutMs, DEFAULT_SOURCE_TIMEOUT_MS, 'timeoutMs');
  const estimator = options.estimator ?? CHARS_PER_TOKEN_ESTIMATOR;
  const strict = options.mode === 'strict';
  const now = options.now ?? (() => new Date());
  const terms = taskQueryTerms(task.description);
  const relevance = relevanceQuery(task.description, STOP_WORDS, task.files ?? []);
  const repo = options.repo;
  const started = now();

  const receiptBase = {
    schema: 1 as const,
    repo: String(repo),
    ...(task.id === undefined ? {} : { task_id: task.id }),
    ...(task.user === undefined ? {} : { user: task.user }),
    ...(options.promptVersion === undefined ? {} : { prompt_version: options.promptVersion }),
    ...(options.commit === undefined ? {} : { commit: options.commit }),
    created_at: started.toISOString(),
    estimator: estimator.name,
    budget_tokens: budget,
    query_terms: terms,
    items_omitted: 0,
  };

  if (!isRepoSlug(repo)) {
    const failure: SourceFailure = {
      source: 'repo',
      category: 'configuration',
      severity: 'error',
      message: `repository name ${JSON.stringify(repo)} is not "owner/name", so no memory can be mapped to it`,
      code: 'INVALID_ARGUMENT',
    };
    if (strict) throw new RepomemError('INVALID_ARGUMENT', failure.message, { details: { repo } });
    const receipt: ContextReceipt = { ...receiptBase, used_tokens: 0, sources: [], items: [] };
    return {
      status: 'error',
      context: emptyContext(),
      markdown: '',
      memoryAvailable: false,
      receipt,
      dropped: [],
      warnings: [],
      errors: [failure],
    };
  }

  // Branch scope of task records, resolved once and only when a record says where it was learned.
  let branchScope: Promise<BranchScope> | undefined;
  const judge = async (records: Parameters<typeof scopeVerdicts>[0]) => {
    branchScope ??= resolveBranchScope(
      { ref: options.commit, branch: options.branch, defaultBranch: options.defaultBranch },
      options.history,
      repo,
    );
    return scopeVerdicts(records, await branchScope, options.history, repo);
  };
  const reads = await Promise.all(
    CONTEXT_SOURCES.map(async (source) => {
      const skipped =
        (source === 'verified' && options.verified === undefined) ||
        (source === 'preferences' && task.user === undefined);
      if (skipped) return { source, skipped: true as const };
      const limit = positiveInteger(options.limits?.[source], DEFAULT_SOURCE_LIMITS[source], `limits.${source}`);
      const timeout = positiveInteger(options.timeouts?.[source], defaultTimeout, `timeouts.${source}`);
      const pool = Math.max(limit, CANDIDATE_POOL);
      const outcome = await runWithTimeout<SourceRead>(
        (signal) =>
          SOURCE_READERS[source]({ options, backend: options.backend, repo, terms, limit: pool, signal, judge }),
        timeout,
        options.signal,
      );
      return { source, skipped: false as const, outcome, limit };
    }),
  );

  const warnings: SourceFailure[] = [];
  const errors: SourceFailure[] = [];
  const thrown: unknown[] = [];
  const sources: ReceiptSource[] = [];
  const read: Candidate[] = [];
  const limits = new Map<ContextSource, number>();
  const report = (source: SourceFailure['source'], error: unknown): SourceFailure => {
    const failure: SourceFailure = { source, ...classifyMemoryFailure(error) };
    (failure.severity === 'warning' ? warnings : errors).push(failure);
    thrown.push(error);
    return failure;
  };
  for (const answer of reads) {
    if (answer.skipped) {
      sources.push({ source: answer.source, status: 'skipped', candidates: 0, ms: 0 });
      continue;
    }
    const { outcome } = answer;
    const ms = Math.round(outcome.ms);
    if (!outcome.ok) {
      const failure = report(answer.source, outcome.error);
      sources.push({
        source: answer.source,
        status: 'failed',
        candidates: 0,
        ms,
        category: failure.category,
        message: failure.message,
      });
      continue;
    }
    for (const skipped of outcome.value.skipped) report(answer.source, skipped.error);
    read.push(...outcome.value.candidates);
    limits.set(answer.source, answer.limit);
    sources.push({ source: answer.source, status: 'ok', candidates: outcome.value.candidates.length, ms });
  }
  if (strict && thrown.length > 0) throw strictError([...errors, ...warnings], thrown);

  const scored = await scoreCandidates(read, relevance, {
    ...(options.semantic === undefined ? {} : { semantic: options.semantic }),
    timeoutMs: positiveInteger(options.timeouts?.semantic, defaultTimeout, 'timeouts.semantic'),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    limits,
  });
  if (scored.failure !== undefined) {
    if (strict) throw scored.failure;
    report('semantic', scored.failure);
  }
  const candidates = scored.candidates;
  const receiptSources = sources.map((entry): ReceiptSource => {
    if (entry.status !== 'ok') return entry;
    const kept = candidates.filter((candidate) => candidate.source === entry.source).length;
    const beyond = entry.candidates - kept;
    return { ...entry, candidates: kept, ...(beyond > 0 ? { beyond_limit: beyond } : {}) };
  });

  const fill = fillBudget(repo, candidates, budget, estimator, task.user);
  const markdown = renderMemoryBlock(
    repo,
    CONTEXT_SOURCES.map((source) => ({ source, lines: (fill.included.get(source) ?? []).map((c) => c.line) })),
    task.user,
  );
  const receipt: ContextReceipt = {
    ...receiptBase,
    used_tokens: markdown === '' ? 0 : estimator.estimate(markdown),
    sources: receiptSources,
    items: [...fill.items],
  };
  const noteRules = options.noteRuleRetrievals;
  if (noteRules !== undefined && noteRules !== false) {
    try {
      if (task.id === undefined) throw new RepomemError('INVALID_ARGUMENT', 'noteRuleRetrievals needs task.id');
      // A rule counts as retrieved only when it was given as relevant to this task (its words or
      // scope match): every active rule is given, so being included alone says nothing.
      const included = fill.included.get('rules') ?? [];
      const matched = await scoreRelevance(
        relevance,
        included.map((c) => ({ key: c.id, text: c.text, ...(c.scope === undefined ? {} : { scope: c.scope }) })),
      );
      const retrieved = included.filter((c) => matched.get(c.id)?.relevant === true).map((c) => c.id);
      const expireAfterTasks = typeof noteRules === 'object' ? noteRules.expireAfterTasks : undefined;
      await noteRuleRetrievals(
        options.backend,
        { repo, taskId: task.id, retrieved, ...(expireAfterTasks === undefined ? {} : { expireAfterTasks }) },
        { now },
      );
    } catch (error) {
      if (strict) throw error;
      report('rule-retrievals', error);
    }
  }
  if (options.recordReceipt === true) {
    try {
      await recordReceipt(options.backend, receipt, now);
    } catch (error) {
      if (strict) throw error;
      report('receipt', error);
    }
  }
  return {
    status: errors.length > 0 ? 'error' : warnings.length > 0 ? 'degraded' : 'ok',
    context: buildContext(fill.included),
    markdown,
    memoryAvailable: markdown !== '',
    receipt,
    dropped: fill.items.filter((item) => !item.included),
    warnings,
    errors,
  };
}
