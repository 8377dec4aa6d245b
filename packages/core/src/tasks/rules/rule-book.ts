// Why: accepted rules become `rule` task records, and their life cycle (deduplicate, supersede a
// contradicting older rule, expire rules no agent was given for N tasks) must hold on every
// store. Everything here goes through the TaskRecordBackend with compare-and-swap: a concurrent
// writer makes the whole step re-read and retry, never lose an update.
import { RepomemError } from '../../errors.js';
import { scopeKey } from '../../verified/record.js';
import type { TaskRecord, TaskRecordBackend, TaskRecordWrite } from '../record-backend.js';
import type { RuleRejection } from './injection-screen.js';
import type { CandidateRule } from './parse-rule-output.js';
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
}

/** What happened to one candidate in {@link saveRules}. */
export type SavedRuleOutcome =
  | { readonly kind: 'added'; readonly rule: StoredRule; readonly supersedes: readonly string[] }
  | { readonly kind: 'confirmed'; readonly rule: StoredRule; readonly candidate: CandidateRule }
  | { readonly kind: 'reactivated'; readonly rule: StoredRule; readonly supersedes: readonly string[] }
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

/**
 * Store accepted candidate rules of `repo` (see `parseRuleOutput`), in order:
 * - the same rule (same scope, same normalised text, or a `duplicate` by `compare`) already
 *   active: `confirmed` (its provenance is added to `confirmations`, its weight raised to the
 *   stronger reviewer's);
 * - the same rule superseded or expired: `reactivated`;
 * - a rule that contradicts active rules of the same scope (newest wins, seed rule "same scope:
 *   newest wins, different scopes coexist"): `added`, and the older rules become `superseded`;
 *   unless one of them weighs more (a stronger reviewer's), then the candidate is `refused`
 *   (`contradicts_stronger_rule`);
 * - otherwise `added`.
 */
export async function saveRules(
  backend: TaskRecordBackend,
  repo: string,
  candidates: readonly CandidateRule[],
  options: RuleBookOptions = {},
): Promise<SaveRulesResult> {
  const compare = options.compare ?? compareRules;
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
      const stronger = contradicted.find((rule) => rule.data.weight > candidate.weight);
      if (stronger !== undefined) {
        outcomes.push({
          kind: 'refused',
          candidate,
          rejection: {
            reason: 'contradicts_stronger_rule',
            message: `contradicts rule ${stronger.id} from ${describeSource(stronger.data.provenance)}, which weighs more (${stronger.data.weight} > ${candidate.weight})`,
          },
        });
        continue;
      }
      for (const old of contradicted) {
        old.data = retire(
          old.data,
          'superseded',
          at,
          `contradicted by a newer rule from ${describeSource(candidate.provenance)}`,
          id,
        );
        old.changed = true;
        superseded.push({ id: old.id, by: id });
      }
      const supersedes = contradicted.map((rule) => rule.id);
      if (same !== undefined) {
        const { superseded_by: _by, ...rest } = same.data;
        same.data = {
          ...confirm(rest, candidate),
          status: 'active',
          status_changed_at: at,
          status_reason: `taught again by ${describeSource(candidate.provenance)}`,
          tasks_since_retrieved: 0,
          supersedes: [...new Set([...rest.supersedes, ...supersedes])],
        };
        same.changed = true;
        outcomes.push({ kind: 'reactivated', rule: storedOf(repo, same, at), supersedes });
        continue;
      }
      const created: WorkingRule = {
        id,
        revision: null,
        changed: true,
        data: {
          rule: candidate.rule,
          ...(candidate.scope === undefined ? {} : { scope: candidate.scope }),
          source: candidate.provenance.prompt_version === 'manual' ? 'manual' : 'review',
          authority: candidate.authority,
          weight: candidate.weight,
          status: 'active',
          provenance: candidate.provenance,
          confirmations: [],
          supersedes,
          tasks_since_retrieved: 0,
        },
      };
      rules.set(id, created);
      outcomes.push({ kind: 'added', rule: storedOf(repo, created, at), supersedes });
    }
    return { outcomes, superseded };
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
