// Why: review rules are stored as `rule` task records, and hydration reads them back; both sides
// must agree on one shape. This module owns that shape (the zod schema of a rule record's
// `data`), the record id derived from the rule's text and scope, and the conversions between a
// stored record and a typed rule.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { RepomemError } from '../../errors.js';
import { LEARNED_ON_FIELDS } from '../../verified/learned-on.js';
import { scopeKey } from '../../verified/record.js';
import type { TaskRecord } from '../record-backend.js';
import { AuthorAssociationSchema, ReviewerAuthoritySchema } from './reviewer-authority.js';
import { PENDING_REASONS } from './rule-classifier.js';
import { normalizedRuleText } from './rule-similarity.js';
import { SENSITIVE_SUBJECTS } from './rule-subjects.js';

/** The task-record kind of review rules. */
export const RULE_RECORD_KIND = 'rule' as const;

/** Longest rule text, in characters (longer lines are rejected as `too_long`). */
export const MAX_RULE_CHARS = 300;
/** Longest rule scope (a path, module or file pattern), in characters. */
export const MAX_RULE_SCOPE_CHARS = 160;
/** Most confirmations (later reviews repeating a stored rule) kept on one rule. */
export const MAX_RULE_CONFIRMATIONS = 20;

/**
 * Lifecycle of a rule: hydrated only while `active`; `pending` waits for a maintainer's
 * approval; `refused` was rejected by one; `superseded` and `expired` are kept for audit.
 */
export const RULE_STATUSES = ['active', 'pending', 'refused', 'superseded', 'expired'] as const;
/** Zod schema of a rule status. */
export const RuleStatusSchema = z.enum(RULE_STATUSES);
/** Lifecycle of a rule. */
export type RuleStatus = z.infer<typeof RuleStatusSchema>;

/** Where a rule came from: extracted from a review, or written by a person (`rules supersede`). */
export const RuleSourceSchema = z.enum(['review', 'manual']);
/** Where a rule came from. */
export type RuleSource = z.infer<typeof RuleSourceSchema>;

const IsoTime = z.iso.datetime({ offset: true, message: 'expected an ISO 8601 timestamp' });
const Login = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9-]+(\[bot\])?$/, { message: 'expected a GitHub login' });

/** Zod schema of a rule's provenance: which review taught it, and with which prompt. */
export const RuleProvenanceSchema = z.object({
  /** Pull request number (absent for a rule written by a person). */
  pr: z.number().int().min(1).optional(),
  /** Pull request URL, when known. */
  pr_url: z.string().max(400).optional(),
  /** Reviewer's (or, for a manual rule, author's) GitHub login. */
  reviewer: Login,
  /** Reviewer's `author_association` at the time of the review. */
  association: AuthorAssociationSchema,
  /** Review id, when the rule came from a review. */
  review_id: z.number().int().optional(),
  /** Review comment id, when the rule came from one inline comment. */
  comment_id: z.number().int().optional(),
  /** When the review was submitted (ISO 8601), when known. */
  reviewed_at: IsoTime.optional(),
  /** When the rule was extracted (ISO 8601). */
  extracted_at: IsoTime,
  /** Version of the extraction prompt that produced the rule (`sha256:...`), or `manual`. */
  prompt_version: z.string().min(1).max(100),
});
/** A rule's provenance. */
export type RuleProvenance = z.infer<typeof RuleProvenanceSchema>;

/** Zod schema of one reason a rule is pending. */
export const RulePendingReasonSchema = z.object({
  /** Stable reason code. */
  reason: z.enum(PENDING_REASONS),
  /** What was found, for the maintainer who decides. */
  message: z.string().max(600),
  /** Sensitive subjects found (reason `sensitive_subject`). */
  subjects: z.array(z.enum(SENSITIVE_SUBJECTS)).max(20).optional(),
});

/** Zod schema of a maintainer's decision on a pending rule. */
export const RuleDecisionSchema = z.object({
  /** `approved` (the rule became active) or `rejected` (it became refused). */
  action: z.enum(['approved', 'rejected']),
  /** Who decided (a GitHub login, or the git identity's name). */
  by: z.string().min(1).max(100),
  /** When (ISO 8601). */
  at: IsoTime,
  /** Why, when given. */
  note: z.string().max(300).optional(),
});
/** A maintainer's decision on a pending rule. */
export type RuleDecision = z.infer<typeof RuleDecisionSchema>;

/** Zod schema of the `data` of a `rule` task record. */
export const RuleDataSchema = z.object({
  /** The rule: one imperative sentence. */
  rule: z.string().min(1).max(MAX_RULE_CHARS),
  /** Part of the codebase the rule applies to (path, module, file pattern); absent = whole repository. */
  scope: z.string().min(1).max(MAX_RULE_SCOPE_CHARS).optional(),
  /** Where the rule came from. */
  source: RuleSourceSchema,
  /** Reviewer authority level of the rule's provenance. */
  authority: ReviewerAuthoritySchema,
  /** Weight by reviewer authority (0-1), raised when a stronger reviewer repeats the rule. */
  weight: z.number().min(0).max(1),
  /** Lifecycle status. */
  status: RuleStatusSchema,
  /** When and why the status last changed (supersession, expiry). */
  status_changed_at: IsoTime.optional(),
  /** Human-readable reason of the last status change. */
  status_reason: z.string().max(300).optional(),
  /** Who taught the rule first. */
  provenance: RuleProvenanceSchema,
  /** Later reviews that repeated the rule (newest last, at most {@link MAX_RULE_CONFIRMATIONS}). */
  confirmations: z.array(RuleProvenanceSchema).max(MAX_RULE_CONFIRMATIONS).default([]),
  /** Ids of the rules this one replaced. */
  supersedes: z.array(z.string()).max(50).default([]),
  /** Id of the rule that replaced this one (status `superseded`). */
  superseded_by: z.string().optional(),
  /** Task id of the last hydration that gave this rule to the agent. */
  last_retrieved_task: z.string().max(200).optional(),
  /** Why the rule is (or was) pending, newest reasons last. */
  pending_reasons: z.array(RulePendingReasonSchema).max(20).default([]),
  /** Active rules this one contradicts: superseded when it is approved. */
  contradicts: z.array(z.string()).max(50).default([]),
  /** The maintainer's decision, once a pending rule was approved or rejected. */
  decision: RuleDecisionSchema.optional(),
  /** Tasks counted since the rule was last given to an agent (expiry counter). */
  tasks_since_retrieved: z.number().int().min(0).default(0),
  /** Last task id counted, so counting the same task twice changes nothing. */
  last_counted_task: z.string().max(200).optional(),
  ...LEARNED_ON_FIELDS,
});
/** The `data` of a `rule` task record (output of {@link RuleDataSchema}). */
export type RuleData = z.output<typeof RuleDataSchema>;
/** The `data` of a `rule` task record as a writer may give it (defaults filled by {@link RuleDataSchema}). */
export type RuleDataInput = z.input<typeof RuleDataSchema>;

/** A stored review rule: its record's identity plus its validated data. */
export interface StoredRule {
  /** Record id (see {@link ruleRecordId}). */
  readonly id: string;
  /** Repository. */
  readonly repo: string;
  /** Record revision (compare-and-swap token). */
  readonly revision: number;
  /** Last write time. */
  readonly updated_at: string;
  /** Validated rule data. */
  readonly data: RuleData;
}

/**
 * The record id of a rule: `rule-` + 24 hex digits of SHA-256 over its scope key and normalised
 * text, so the same rule (any case, spacing or punctuation) taught twice lands on one record.
 */
export function ruleRecordId(rule: string, scope?: string | null): string {
  const key = `${scopeKey(scope) ?? ''}\n${normalizedRuleText(rule)}`;
  return `rule-${createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 24)}`;
}

/** The searchable `text` of a rule record: the rule, then its scope. */
export function ruleSearchText(data: RuleData): string {
  return data.scope === undefined ? data.rule : `${data.rule} ${data.scope}`;
}

/**
 * The typed rule of a `rule` task record. Throws `INVALID_DOCUMENT` when the record is of
 * another kind or its data does not match {@link RuleDataSchema}.
 */
export function ruleFromRecord(record: TaskRecord): StoredRule {
  if (record.kind !== RULE_RECORD_KIND) {
    throw new RepomemError('INVALID_DOCUMENT', `record ${record.id} is a ${record.kind} record, not a rule`);
  }
  const parsed = RuleDataSchema.safeParse(record.data);
  if (!parsed.success) {
    throw new RepomemError('INVALID_DOCUMENT', `rule record ${record.id} has invalid data: ${parsed.error.message}`, {
      details: { id: record.id },
    });
  }
  return {
    id: record.id,
    repo: record.repo,
    revision: record.revision,
    updated_at: record.updated_at,
    data: parsed.data,
  };
}

/** The `rule` task record storing `data` (revision and time supplied by the writer). */
export function ruleToRecord(
  repo: string,
  id: string,
  data: RuleDataInput,
  revision: number,
  updatedAt: string,
): TaskRecord {
  const parsed = RuleDataSchema.parse(data);
  return {
    kind: RULE_RECORD_KIND,
    repo,
    id,
    revision,
    updated_at: updatedAt,
    text: ruleSearchText(parsed),
    data: parsed,
  };
}
