// Why: screened rules become `rule` task records, and their life cycle (deduplicate, hold doubtful
// or contradicting rules `pending` for a maintainer, approve or reject them, supersede, expire rules
// no agent was given as relevant for N tasks) must hold on every
// store. Everything here goes through the TaskRecordBackend with compare-and-swap: a concurrent
// writer makes the whole step re-read and retry, never lose an update.
import { RepomemError } from '../../errors.js';
import { type LearnedOn, type LearnedOnInput, parseLearnedOnOption } from '../../verified/learned-on.js';
import { scopeKey } from '../../verified/record.js';
import type { TaskRecord, TaskRecordBackend, TaskRecordWrite } from '../record-backend.js';
import type { RuleRejection } from './injection-screen.js';
import type { CandidateRule } from './parse-rule-output.js';
import type { PendingReason } from './rule-classifier.js';
import {
  MAX_RULE_CONFIRMATIONS,
  RULE_RECORD_KIND,
  type RuleData,
  type RuleProvenance,
  type RuleStatus,
  ruleFromRecord,
  ruleRecordId,
  ruleToRecord,
  type StoredRule,
} from './rule-record.js';
import { compareRules, type RuleComparer } from './rule-similarity.js';

/** Default number of tasks without retrieval after which an active rule expires. */
export const DEFAULT_RULE_EXPIRY_TASKS = 50;
/** Attempts of one rule-book step when concurrent writers keep conflicting. */
const MAX_ATTEMPTS = 5;

/** Options shared by the rule-book operations. */
export interface RuleBookOptions {
  /** Clock (default: `new Date()`). */
  readonly now?: () => Date;
  /** How a new rule relates to a stored one of the same scope (default {@link compareRules}). */
  readonly compare?: RuleComparer;
  /**
   * Commit and branch the rules were learned on (the reviewed pull request's head, see
   * `resolveLearnedOn`): recorded on new rules; a stored rule keeps its own. Absent = the default
   * branch's scope.
   */
  readonly learnedOn?: LearnedOnInput;
}

/** What happened to one candidate in {@link saveRules}. */
export type SavedRuleOutcome =
  | { readonly kind: 'added'; readonly rule: StoredRule; readonly supersedes: readonly string[] }
  | { readonly kind: 'confirmed'; readonly rule: StoredRule; readonly candidate: CandidateRule }
  | { readonly kind: 'reactivated'; readonly rule: StoredRule; readonly supersedes: readonly string[] }
  | { readonly kind: 'pending'; readonly rule: StoredRule; readonly reasons: readonly PendingReason[] }
  | { readonly kind: 'refused'; readonly candidate: CandidateRule; readonly rejection: RuleRejection };

/** Result of {@link saveRules}. */
export interface SaveRulesResult {
  /** One outcome per candidate, in order. */
  readonly outcomes: readonly SavedRuleOutcome[];
  /** Rules marked superseded by this save (id -> id of the rule that replaced it). */
  readonly superseded: readonly { readonly id: string; readonly by: string }[];
}

interface WorkingRule {
  readonly id: string;
  data: RuleData;
  readonly revision: number | null;
  changed: boolean;
}

async function loadRules(backend: TaskRecordBackend, repo: string): Promise<Map<string, WorkingRule>> {
  const records = await backend.list({ repo, kind: RULE_RECORD_KIND });
  const rules = new Map<string, WorkingRule>();
  for (const record of records) {
    let stored: StoredRule;
    try {
      stored = ruleFromRecord(record);
    } catch {
      continue; // A record that is not a valid rule is left alone (never rewritten, never hydrated).
    }
    rules.set(stored.id, { id: stored.id, data: stored.data, revision: stored.revision, changed: false });
  }
  return rules;
}

function writesOf(repo: string, rules: Map<string, WorkingRule>, at: string): TaskRecordWrite[] {
  const writes: TaskRecordWrite[] = [];
  for (const rule of rules.values()) {
    if (!rule.changed) continue;
    const revision = (rule.revision ?? 0) + 1;
    writes.push({ record: ruleToRecord(repo, rule.id, rule.data, revision, at), expectedRevision: rule.revision });
  }
  return writes;
}

function storedOf(repo: string, rule: WorkingRule, at: string): StoredRule {
  const revision = rule.changed ? (rule.revision ?? 0) + 1 : (rule.revision ?? 1);
  return { id: rule.id, repo, revision, updated_at: at, data: rule.data };
}

/** Run `step` over the repository's rules and apply what it changed, re-reading on conflict. */
async function withRules<T>(
  backend: TaskRecordBackend,
  repo: string,
  now: () => Date,
  step: (rules: Map<string, WorkingRule>, at: string) => T,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const rules = await loadRules(backend, repo);
    const at = now().toISOString();
    const result = step(rules, at);
    const writes = writesOf(repo, rules, at);
    if (writes.length === 0) return result;
    const applied = await backend.apply(writes);
    if (applied.ok) return result;
    if (attempt >= MAX_ATTEMPTS) {
      throw new RepomemError('CONFLICT', `rules of ${repo} kept changing during ${MAX_ATTEMPTS} attempts; try again`, {
        details: { repo, conflicts: applied.conflicts.map((conflict) => conflict.id) },
      });
    }
  }
}

function confirm(data: RuleData, candidate: CandidateRule): RuleData {
  const confirmations = [...data.confirmations, candidate.provenance].slice(-MAX_RULE_CONFIRMATIONS);
  return {
    ...data,
    confirmations,
    weight: Math.max(data.weight, candidate.weight),
    ...(candidate.weight > data.weight ? { authority: candidate.authority } : {}),
  };
}

function retire(data: RuleData, status: RuleStatus, at: string, reason: string, by?: string): RuleData {
  return {
    ...data,
    status,
    status_changed_at: at,
    status_reason: reason,
    ...(by === undefined ? {} : { superseded_by: by }),
  };
}

function describeSource(provenance: RuleProvenance): string {
  return provenance.pr === undefined
    ? `a rule written by @${provenance.reviewer}`
    : `PR #${provenance.pr} (review by @${provenance.reviewer})`;
}

function mergeReasons(old: readonly PendingReason[], added: readonly PendingReason[]): RuleData['pending_reasons'] {
  const seen = new Set(old.map((reason) => `${reason.reason}\n${reason.message}`));
  const merged = [...old];
  for (const reason of added) {
    if (!seen.has(`${reason.reason}\n${reason.message}`)) merged.push(reason);
  }
  return merged
    .slice(-20)
    .map(({ subjects, ...reason }) => ({ ...reason, ...(subjects === undefined ? {} : { subjects: [...subjects] }) }));
}

function newRuleData(
  candidate: CandidateRule,
  status: 'active' | 'pending',
  supersedes: readonly string[],
  learnedOn?: LearnedOn,
): RuleData {
  return {
    ...(learnedOn === undefined ? {} : { learned_on: learnedOn }),
    rule: candidate.rule,
    ...(candidate.scope === undefined ? {} : { scope: candidate.scope }),
    source: candidate.provenance.prompt_version === 'manual' ? 'manual' : 'review',
    authority: candidate.authority,
    weight: candidate.weight,
    status,
    provenance: candidate.provenance,
    confirmations: [],
    supersedes: [...supersedes],
    pending_reasons: [],
    contradicts: [],
    tasks_since_retrieved: 0,
  };
}

/**
 * Store screened candidate rules of `repo` (see `parseRuleOutput`), in order:
 * - the same rule (same scope, same normalised text, or a `duplicate` by `compare`) already
 *   active: `confirmed` (its provenance is added to `confirmations`, its weight raised to the
 *   stronger reviewer's);
 * - the same rule refused by a maintainer: `refused` (`rejected_by_maintainer`), never revived;
 * - a `pending` candidate, or one that contradicts active rules of the same scope: stored
 *   `pending` with its reasons (`contradicts_active_rule` names the rules it would supersede when
 *   approved): never hydrated until `approveRule`;
 * - the same rule superseded or expired: `reactivated`;
 * - otherwise `added` as active.
 */
export async function saveRules(
  backend: TaskRecordBackend,
  repo: string,
  candidates: readonly CandidateRule[],
  options: RuleBookOptions = {},
): Promise<SaveRulesResult> {
  const compare = options.compare ?? compareRules;
  const learnedOn = parseLearnedOnOption(options.learnedOn);
  return withRules(backend, repo, options.now ?? (() => new Date()), (rules, at) => {
    const outcomes: SavedRuleOutcome[] = [];
    const superseded: { id: string; by: string }[] = [];
    for (const candidate of candidates) {
      const id = ruleRecordId(candidate.rule, candidate.scope);
      const scope = scopeKey(candidate.scope);
      const same = rules.get(id);
      if (same?.data.status === 'active') {
        same.data = confirm(same.data, candidate);
        same.changed = true;
        outcomes.push({ kind: 'confirmed', rule: storedOf(repo, same, at), candidate });
        continue;
      }
      if (same?.data.status === 'refused') {
        const by = same.data.decision?.by;
        outcomes.push({
          kind: 'refused',
          candidate,
          rejection: {
            reason: 'rejected_by_maintainer',
            message: `rule ${id} was rejected${by === undefined ? '' : ` by @${by}`}`,
          },
        });
        continue;
      }
      const sameScope = [...rules.values()].filter(
        (rule) => rule.id !== id && rule.data.status === 'active' && scopeKey(rule.data.scope) === scope,
      );
      const duplicate = sameScope.find((rule) => compare(candidate.rule, rule.data.rule) === 'duplicate');
      if (duplicate !== undefined) {
        duplicate.data = confirm(duplicate.data, candidate);
        duplicate.changed = true;
        outcomes.push({ kind: 'confirmed', rule: storedOf(repo, duplicate, at), candidate });
        continue;
      }
      const contradicted = sameScope.filter((rule) => compare(candidate.rule, rule.data.rule) === 'contradiction');
      const reasons: PendingReason[] = [...(candidate.status === 'pending' ? (candidate.pendingReasons ?? []) : [])];
      if (candidate.status === 'pending' && reasons.length === 0) {
        reasons.push({ reason: 'not_a_code_convention', message: 'marked pending by the caller' });
      }
      if (contradicted.length > 0) {
        reasons.push({
          reason: 'contradicts_active_rule',
          message: `contradicts active ${contradicted.length === 1 ? 'rule' : 'rules'} ${contradicted
            .map((rule) => `${rule.id} (${describeSource(rule.data.provenance)})`)
            .join(', ')}: approving it supersedes them`,
        });
      }
      if (reasons.length > 0) {
        const contradicts = contradicted.map((rule) => rule.id);
        const base =
          same === undefined ? newRuleData(candidate, 'pending', [], learnedOn) : confirm(same.data, candidate);
        const { superseded_by: _by, ...rest } = base;
        const working: WorkingRule = same ?? { id, revision: null, changed: true, data: base };
        working.data = {
          ...rest,
          status: 'pending',
          status_changed_at: at,
          status_reason: `waiting for a maintainer: ${reasons.map((reason) => reason.reason).join(', ')}`,
          pending_reasons: mergeReasons(same?.data.pending_reasons ?? [], reasons),
          contradicts: [...new Set([...rest.contradicts, ...contradicts])],
        };
        working.changed = true;
        rules.set(id, working);
        outcomes.push({ kind: 'pending', rule: storedOf(repo, working, at), reasons });
        continue;
      }
      if (same !== undefined) {
        const { superseded_by: _by, ...rest } = same.data;
        same.data = {
          ...confirm(rest, candidate),
          status: 'active',
          status_changed_at: at,
          status_reason: `taught again by ${describeSource(candidate.provenance)}`,
          tasks_since_retrieved: 0,
        };
        same.changed = true;
        outcomes.push({ kind: 'reactivated', rule: storedOf(repo, same, at), supersedes: [] });
        continue;
      }
      const created: WorkingRule = {
        id,
        revision: null,
        changed: true,
        data: newRuleData(candidate, 'active', [], learnedOn),
      };
      rules.set(id, created);
      outcomes.push({ kind: 'added', rule: storedOf(repo, created, at), supersedes: [] });
    }
    return { outcomes, superseded };
  });
}

/** Who decides on a pending rule, and why. */
export interface RuleDecisionInput {
  /** The maintainer (GitHub login or git identity). */
  readonly by: string;
  /** Why, when given. */
  readonly note?: string;
}

/** Outcome of {@link approveRule} and {@link rejectRule}. */
export type RuleDecisionOutcome =
  | { readonly kind: 'approved'; readonly rule: StoredRule; readonly superseded: readonly string[] }
  | { readonly kind: 'rejected'; readonly rule: StoredRule }
  | { readonly kind: 'not_found'; readonly id: string }
  | { readonly kind: 'not_pending'; readonly rule: StoredRule };

function checkDecider(decision: RuleDecisionInput): void {
  if (decision.by.trim() === '' || decision.by.length > 100) {
    throw new RepomemError('INVALID_ARGUMENT', 'who decides on a rule must be named (1-100 characters)');
  }
  if (decision.note !== undefined && decision.note.length > 300) {
    throw new RepomemError('INVALID_ARGUMENT', 'a decision note has at most 300 characters');
  }
}

/**
 * A maintainer approves the pending rule `id`: it becomes `active` (hydrated from the next task
 * on), the decision is recorded, and the active rules it contradicts become `superseded`.
 */
export async function approveRule(
  backend: TaskRecordBackend,
  repo: string,
  id: string,
  decision: RuleDecisionInput,
  options: RuleBookOptions = {},
): Promise<RuleDecisionOutcome> {
  checkDecider(decision);
  return withRules(backend, repo, options.now ?? (() => new Date()), (rules, at): RuleDecisionOutcome => {
    const rule = rules.get(id);
    if (rule === undefined) return { kind: 'not_found', id };
    if (rule.data.status !== 'pending') return { kind: 'not_pending', rule: storedOf(repo, rule, at) };
    const superseded: string[] = [];
    for (const otherId of rule.data.contradicts) {
      const other = rules.get(otherId);
      if (other === undefined || other.data.status !== 'active') continue;
      other.data = retire(other.data, 'superseded', at, `superseded by rule ${id}, approved by @${decision.by}`, id);
      other.changed = true;
      superseded.push(otherId);
    }
    rule.data = {
      ...rule.data,
      status: 'active',
      status_changed_at: at,
      status_reason: `approved by @${decision.by}`,
      decision: {
        action: 'approved',
        by: decision.by,
        at,
        ...(decision.note === undefined ? {} : { note: decision.note }),
      },
      supersedes: [...new Set([...rule.data.supersedes, ...superseded])],
      tasks_since_retrieved: 0,
    };
    rule.changed = true;
    return { kind: 'approved', rule: storedOf(repo, rule, at), superseded };
  });
}

/** A maintainer rejects the pending rule `id`: it becomes `refused`, kept for audit, never revived by a later review. */
export async function rejectRule(
  backend: TaskRecordBackend,
  repo: string,
  id: string,
  decision: RuleDecisionInput,
  options: RuleBookOptions = {},
): Promise<RuleDecisionOutcome> {
  checkDecider(decision);
  return withRules(backend, repo, options.now ?? (() => new Date()), (rules, at): RuleDecisionOutcome => {
    const rule = rules.get(id);
    if (rule === undefined) return { kind: 'not_found', id };
    if (rule.data.status !== 'pending') return { kind: 'not_pending', rule: storedOf(repo, rule, at) };
    rule.data = {
      ...rule.data,
      status: 'refused',
      status_changed_at: at,
      status_reason: `rejected by @${decision.by}`,
      decision: {
        action: 'rejected',
        by: decision.by,
        at,
        ...(decision.note === undefined ? {} : { note: decision.note }),
      },
    };
    rule.changed = true;
    return { kind: 'rejected', rule: storedOf(repo, rule, at) };
  });
}

/** Which rules {@link listRules} returns. */
export interface ListRulesOptions {
  /** Only rules with this status (default: every status). */
  readonly status?: RuleStatus;
  /** Most rules returned (default: all). */
  readonly limit?: number;
}

/**
 * Rules of `repo`, strongest first (weight, then newest). Records of kind `rule` whose data is
 * not a valid rule are skipped.
 */
export async function listRules(
  backend: TaskRecordBackend,
  repo: string,
  options: ListRulesOptions = {},
): Promise<StoredRule[]> {
  const records: TaskRecord[] = await backend.list({ repo, kind: RULE_RECORD_KIND });
  const rules: StoredRule[] = [];
  for (const record of records) {
    try {
      const rule = ruleFromRecord(record);
      if (options.status === undefined || rule.data.status === options.status) rules.push(rule);
    } catch {
      // skipped: not a valid rule record
    }
  }
  rules.sort(
    (a, b) => b.data.weight - a.data.weight || (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0),
  );
  return options.limit === undefined ? rules : rules.slice(0, options.limit);
}

/** The active rules of `repo`, strongest first: what hydration gives the agent. */
export function listActiveRules(backend: TaskRecordBackend, repo: string, limit?: number): Promise<StoredRule[]> {
  return listRules(backend, repo, { status: 'active', ...(limit === undefined ? {} : { limit }) });
}

/** Outcome of {@link supersedeRule}. */
export type SupersedeRuleOutcome =
  | { readonly kind: 'superseded'; readonly old: StoredRule; readonly replacement?: StoredRule }
  | { readonly kind: 'not_found'; readonly id: string }
  | { readonly kind: 'not_active'; readonly rule: StoredRule };

/**
 * Mark the active rule `id` superseded by a person, optionally by a replacement rule (a screened
 * candidate, typically from `manualRuleCandidate`). The replacement is added (or reactivated)
 * in the same all-or-nothing write.
 */
export async function supersedeRule(
  backend: TaskRecordBackend,
  repo: string,
  id: string,
  replacement: CandidateRule | undefined,
  reason: string,
  options: RuleBookOptions = {},
): Promise<SupersedeRuleOutcome> {
  return withRules(backend, repo, options.now ?? (() => new Date()), (rules, at): SupersedeRuleOutcome => {
    const old = rules.get(id);
    if (old === undefined) return { kind: 'not_found', id };
    if (old.data.status !== 'active') return { kind: 'not_active', rule: storedOf(repo, old, at) };
    let replacementRule: WorkingRule | undefined;
    if (replacement !== undefined) {
      const newId = ruleRecordId(replacement.rule, replacement.scope);
      const existing = rules.get(newId);
      if (existing !== undefined && newId !== id) {
        const { superseded_by: _by, ...rest } = existing.data;
        existing.data = {
          ...confirm(rest, replacement),
          status: 'active',
          status_changed_at: at,
          status_reason: reason,
          tasks_since_retrieved: 0,
          supersedes: [...new Set([...rest.supersedes, id])],
        };
        existing.changed = true;
        replacementRule = existing;
      } else if (newId !== id) {
        replacementRule = {
          id: newId,
          revision: null,
          changed: true,
          data: {
            rule: replacement.rule,
            ...(replacement.scope === undefined ? {} : { scope: replacement.scope }),
            source: replacement.provenance.prompt_version === 'manual' ? 'manual' : 'review',
            authority: replacement.authority,
            weight: replacement.weight,
            status: 'active',
            provenance: replacement.provenance,
            confirmations: [],
            supersedes: [id],
            pending_reasons: [],
            contradicts: [],
            tasks_since_retrieved: 0,
          },
        };
        rules.set(newId, replacementRule);
      }
    }
    old.data = retire(old.data, 'superseded', at, reason, replacementRule?.id);
    old.changed = true;
    return {
      kind: 'superseded',
      old: storedOf(repo, old, at),
      ...(replacementRule === undefined ? {} : { replacement: storedOf(repo, replacementRule, at) }),
    };
  });
}

/** Input of {@link noteRuleRetrievals}. */
export interface RuleRetrievalInput {
  /** Repository. */
  readonly repo: string;
  /** The task that was hydrated (counted once, however often this is called for it). */
  readonly taskId: string;
  /** Ids of the rules the task's context included. */
  readonly retrieved: readonly string[];
  /** Tasks without retrieval after which an active rule expires (default {@link DEFAULT_RULE_EXPIRY_TASKS}). */
  readonly expireAfterTasks?: number;
}

/** Result of {@link noteRuleRetrievals}. */
export interface RuleRetrievalResult {
  /** Rules whose counter was reset (retrieved by the task). */
  readonly retrieved: readonly string[];
  /** Rules that expired with this task. */
  readonly expired: readonly string[];
  /** True when the task had already been counted (nothing changed). */
  readonly alreadyCounted: boolean;
}

/**
 * Count one task against the repository's active rules, after hydration: retrieved rules start
 * over at 0, the others count one more task, and a rule reaching `expireAfterTasks` becomes
 * `expired`. Counting the same task id twice changes nothing.
 */
export async function noteRuleRetrievals(
  backend: TaskRecordBackend,
  input: RuleRetrievalInput,
  options: RuleBookOptions = {},
): Promise<RuleRetrievalResult> {
  const limit = input.expireAfterTasks ?? DEFAULT_RULE_EXPIRY_TASKS;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RepomemError('INVALID_ARGUMENT', `expireAfterTasks must be a positive integer, got ${limit}`);
  }
  const wanted = new Set(input.retrieved);
  return withRules(backend, input.repo, options.now ?? (() => new Date()), (rules, at): RuleRetrievalResult => {
    const retrieved: string[] = [];
    const expired: string[] = [];
    let alreadyCounted = false;
    for (const rule of rules.values()) {
      if (rule.data.status !== 'active') continue;
      if (rule.data.last_counted_task === input.taskId) {
        alreadyCounted = true;
        continue;
      }
      if (wanted.has(rule.id)) {
        rule.data = {
          ...rule.data,
          tasks_since_retrieved: 0,
          last_retrieved_task: input.taskId,
          last_counted_task: input.taskId,
        };
        retrieved.push(rule.id);
      } else {
        const count = rule.data.tasks_since_retrieved + 1;
        rule.data = { ...rule.data, tasks_since_retrieved: count, last_counted_task: input.taskId };
        if (count >= limit) {
          rule.data = retire(rule.data, 'expired', at, `not given to an agent in ${count} tasks`);
          expired.push(rule.id);
        }
      }
      rule.changed = true;
    }
    return { retrieved, expired, alreadyCounted };
  });
}
