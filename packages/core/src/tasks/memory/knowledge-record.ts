// Why: repository learnings and agent self-feedback are stored as `knowledge` task records;
// the writer (learnings) and the reader (hydration) must agree on one shape, one id rule (the
// same fact about the same subject and scope is one record) and one searchable text.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { RepomemError } from '../../errors.js';
import { LEARNED_ON_FIELDS } from '../../verified/learned-on.js';
import { scopeKey, subjectKey } from '../../verified/record.js';
import type { TaskRecord } from '../record-backend.js';

/** Longest knowledge subject (the `**[Topic]:**` of a learning), in characters. */
export const MAX_KNOWLEDGE_SUBJECT_CHARS = 200;
/** Longest knowledge scope (directory, module, file pattern), in characters. */
export const MAX_KNOWLEDGE_SCOPE_CHARS = 160;
/** Longest knowledge fact, in characters. */
export const MAX_KNOWLEDGE_FACT_CHARS = 4000;

/** Where a knowledge record came from: the post-task learnings prompt or the self-feedback prompt. */
export const INSIGHT_TYPES = ['repo_learning', 'agent_self_feedback'] as const;
/** Zod schema of an insight type. */
export const InsightTypeSchema = z.enum(INSIGHT_TYPES);
/** Where a knowledge record came from. */
export type InsightType = z.infer<typeof InsightTypeSchema>;

const IsoTime = z.iso.datetime({ offset: true, message: 'expected an ISO 8601 timestamp' });

/** Zod schema of the `data` of a `knowledge` task record. */
export const KnowledgeDataSchema = z.object({
  /** What the learning is about (its topic); the contradiction key with `scope`. */
  subject: z.string().trim().min(1).max(MAX_KNOWLEDGE_SUBJECT_CHARS),
  /** Part of the codebase it applies to; `null` = whole repository. */
  scope: z.string().trim().min(1).max(MAX_KNOWLEDGE_SCOPE_CHARS).nullable(),
  /** The learning itself. */
  fact: z.string().trim().min(1).max(MAX_KNOWLEDGE_FACT_CHARS),
  /** Learnings prompt or self-feedback prompt. */
  insight_type: InsightTypeSchema,
  /** `active` (hydrated) or `superseded` by a newer learning of the same subject and scope. */
  status: z.enum(['active', 'superseded']),
  /** Id of the record that replaced this one. */
  superseded_by: z.string().optional(),
  /** Ids of the records this one replaced. */
  supersedes: z.array(z.string()).max(50).default([]),
  /** Tasks that reported this learning, first first (at most 20). */
  tasks: z.array(z.string().max(128)).max(20).default([]),
  /** When the learning was first recorded. */
  created_at: IsoTime,
  ...LEARNED_ON_FIELDS,
});
/** The `data` of a `knowledge` task record. */
export type KnowledgeData = z.output<typeof KnowledgeDataSchema>;

/** A stored knowledge record with typed data. */
export interface StoredKnowledge {
  /** Record id. */
  readonly id: string;
  /** Record revision. */
  readonly revision: number;
  /** Last write. */
  readonly updated_at: string;
  /** Validated data. */
  readonly data: KnowledgeData;
}

/** Fact text compared for duplicates: lowercased, whitespace collapsed, trailing period dropped. */
export function normalizedFact(fact: string): string {
  return fact
    .normalize('NFC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.!]+$/, '');
}

/** Record id of a learning: `k-` + 24 hex digits of SHA-256 over subject key, scope key and fact. */
export function knowledgeRecordId(subject: string, scope: string | null, fact: string): string {
  const key = JSON.stringify([subjectKey(subject), scopeKey(scope), normalizedFact(fact)]);
  return `k-${createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 24)}`;
}

/** Searchable text of a knowledge record: `subject: fact`, then the scope. */
export function knowledgeSearchText(data: KnowledgeData): string {
  return `${data.subject}: ${data.fact}${data.scope === null ? '' : ` (${data.scope})`}`;
}

/** Typed knowledge of a record; `INVALID_DOCUMENT` when its data does not match the schema. */
export function knowledgeFromRecord(record: TaskRecord): StoredKnowledge {
  const parsed = KnowledgeDataSchema.safeParse(record.data);
  if (record.kind !== 'knowledge' || !parsed.success) {
    throw new RepomemError('INVALID_DOCUMENT', `record ${record.kind}/${record.id} is not valid knowledge`, {
      details: { id: record.id },
    });
  }
  return { id: record.id, revision: record.revision, updated_at: record.updated_at, data: parsed.data };
}
