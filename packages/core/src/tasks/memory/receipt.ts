// Why: users of other memory systems cannot tell what an agent saw or why a memory was left
// out. A context receipt says exactly that for one hydration (each candidate's id, revision,
// kind, score, tokens, included or dropped and why, plus prompt version, commit and time), can
// be stored keyed by task, and two receipts can be diffed to explain a change in behaviour.
import { z } from 'zod';
import { RepomemError } from '../../errors.js';
import { MAX_SERIALIZED_TASK_RECORD_CHARS, type TaskRecord, type TaskRecordBackend } from '../record-backend.js';
import { assertTaskRecordId, assertTaskRecordRepo } from '../record-rules.js';
import { MemoryFailureCategorySchema } from './failure.js';
import { updateRecord } from './record-update.js';

/** The sources hydration reads, in priority order (highest first). */
export const CONTEXT_SOURCES = ['rules', 'verified', 'knowledge', 'episodes', 'preferences'] as const;
/** Zod schema of a hydration source. */
export const ContextSourceSchema = z.enum(CONTEXT_SOURCES);
/** A hydration source. */
export type ContextSource = z.infer<typeof ContextSourceSchema>;

/** Why a candidate was left out of the context. */
export const DROP_REASONS = ['budget', 'duplicate', 'below-floor', 'outranked'] as const;
/** Zod schema of a drop reason. */
export const DropReasonSchema = z.enum(DROP_REASONS);
/**
 * Why a candidate was left out: `budget` (larger than the room the review rules left, or a rule
 * that did not fit), `outranked` (lost to higher-scoring items, which took the room it needed),
 * `below-floor` (below the relevance floor: it matches nothing of the task), `duplicate` (same
 * text already included).
 */
export type DropReason = z.infer<typeof DropReasonSchema>;

/** A drop reason in words, for reports. */
export function describeDropReason(reason: DropReason): string {
  switch (reason) {
    case 'budget':
      return 'did not fit the budget';
    case 'duplicate':
      return 'repeats an included item';
    case 'below-floor':
      return 'below the relevance floor';
    case 'outranked':
      return 'lost to a higher-scoring item';
  }
}

/** Zod schema of one candidate in a receipt. */
export const ReceiptItemSchema = z.object({
  /** Source it came from. */
  source: ContextSourceSchema,
  /** Record id (task-record id, or the verified memory's id). */
  id: z.string().min(1).max(128),
  /** Record revision read. */
  revision: z.number().int().min(1),
  /** Relevance score the budget is shared by (higher first; rules are placed first whatever their score). */
  score: z.number(),
  /** Estimated tokens of its rendered line. */
  tokens: z.number().int().min(0),
  /** In the context or not. */
  included: z.boolean(),
  /** Why it was dropped (absent when included). */
  reason: DropReasonSchema.optional(),
});
/** One candidate in a receipt. */
export type ReceiptItem = z.infer<typeof ReceiptItemSchema>;

/** Zod schema of one source's outcome in a receipt. */
export const ReceiptSourceSchema = z.object({
  source: ContextSourceSchema,
  /** `ok`, `failed` (see `category`), or `skipped` (not configured: no user, no verified memory). */
  status: z.enum(['ok', 'failed', 'skipped']),
  /** Candidates it returned. */
  candidates: z.number().int().min(0),
  /** Records not considered because the source had more than its candidate limit (the lowest scores). */
  beyond_limit: z.number().int().min(0).optional(),
  /** Wall time in milliseconds. */
  ms: z.number().min(0),
  /** Failure category when failed. */
  category: MemoryFailureCategorySchema.optional(),
  /** Failure message when failed (first 300 characters). */
  message: z.string().max(300).optional(),
});
/** One source's outcome in a receipt. */
export type ReceiptSource = z.infer<typeof ReceiptSourceSchema>;

const IsoTime = z.iso.datetime({ offset: true, message: 'expected an ISO 8601 timestamp' });

/** Zod schema of a context receipt. */
export const ContextReceiptSchema = z.object({
  /** Receipt format version. */
  schema: z.literal(1),
  /** Repository. */
  repo: z.string(),
  /** Task the context was built for. */
  task_id: z.string().max(128).optional(),
  /** User who submitted the task. */
  user: z.string().max(100).optional(),
  /** Prompt version of the run (memory excluded). */
  prompt_version: z.string().max(100).optional(),
  /** Commit of the repository the agent worked on. */
  commit: z.string().max(100).optional(),
  /** When the context was built. */
  created_at: IsoTime,
  /** Token estimator used (`chars/4` by default). */
  estimator: z.string().max(60),
  /** Budget in estimated tokens. */
  budget_tokens: z.number().int().min(0),
  /** Estimated tokens of the rendered block. */
  used_tokens: z.number().int().min(0),
  /** Search words taken from the task description. */
  query_terms: z.array(z.string()).max(64),
  /** Each source's outcome, in priority order. */
  sources: z.array(ReceiptSourceSchema),
  /** Candidates, in the order they were considered (priority, then score). */
  items: z.array(ReceiptItemSchema),
  /** Dropped candidates left out of a stored receipt so it fits one record. */
  items_omitted: z.number().int().min(0).default(0),
});
/** A context receipt. */
export type ContextReceipt = z.output<typeof ContextReceiptSchema>;

/** The receipt trimmed to fit one task record: dropped items are removed from the end first. */
export function fitReceipt(receipt: ContextReceipt): ContextReceipt {
  let fitted = receipt;
  const size = (candidate: ContextReceipt): number =>
    JSON.stringify({
      kind: 'receipt',
      repo: candidate.repo,
      id: candidate.task_id ?? 'x'.repeat(128),
      revision: 1_000_000,
      updated_at: candidate.created_at,
      text: receiptText(candidate),
      data: candidate,
    }).length;
  while (size(fitted) > MAX_SERIALIZED_TASK_RECORD_CHARS) {
    const items = [...fitted.items];
    let index = -1;
    for (let i = items.length - 1; i >= 0; i -= 1) {
      if (items[i]?.included === false) {
        index = i;
        break;
      }
    }
    if (index < 0) index = items.length - 1;
    if (index < 0) break;
    items.splice(index, 1);
    fitted = { ...fitted, items, items_omitted: fitted.items_omitted + 1 };
  }
  return fitted;
}

function receiptText(receipt: ContextReceipt): string {
  return [receipt.task_id ?? '', receipt.user ?? '', ...receipt.query_terms].join(' ').trim();
}

/** Store `receipt` as the `receipt` record of its task (replacing an earlier one of the same task). */
export async function recordReceipt(
  backend: TaskRecordBackend,
  receipt: ContextReceipt,
  now: () => Date = () => new Date(),
): Promise<TaskRecord> {
  const taskId = receipt.task_id;
  if (taskId === undefined)
    throw new RepomemError('INVALID_ARGUMENT', 'a receipt is stored under its task id: set task.id');
  assertTaskRecordRepo(receipt.repo);
  assertTaskRecordId(taskId);
  const fitted = fitReceipt(receipt);
  const { record } = await updateRecord(
    backend,
    { repo: receipt.repo, kind: 'receipt', id: taskId },
    () => ({ text: receiptText(fitted), data: fitted }),
    now,
  );
  if (record === undefined) throw new RepomemError('CONFLICT', `receipt ${taskId} vanished while written`);
  return record;
}

/** The stored receipt of a task, or `undefined`. `INVALID_DOCUMENT` when the stored one is invalid. */
export async function getReceipt(
  backend: TaskRecordBackend,
  repo: string,
  taskId: string,
): Promise<ContextReceipt | undefined> {
  const record = await backend.get(repo, 'receipt', taskId);
  if (record === undefined) return undefined;
  const parsed = ContextReceiptSchema.safeParse(record.data);
  if (!parsed.success)
    throw new RepomemError('INVALID_DOCUMENT', `receipt ${taskId} is invalid: ${parsed.error.message}`);
  return parsed.data;
}

/** One candidate's change between two receipts. */
export interface ReceiptItemChange {
  /** Source. */
  readonly source: ContextSource;
  /** Record id. */
  readonly id: string;
  /** In A (`undefined` = not a candidate of A). */
  readonly before?: ReceiptItem;
  /** In B (`undefined` = not a candidate of B). */
  readonly after?: ReceiptItem;
  /**
   * `added` (included in B only), `removed` (included in A only), `revised` (included in both,
   * another revision), `rescored` (included in both, same revision, another score).
   */
  readonly change: 'added' | 'removed' | 'revised' | 'rescored';
}

/** Result of {@link diffReceipts}. */
export interface ReceiptDiff {
  /** Included-set changes, by source priority then id. */
  readonly items: readonly ReceiptItemChange[];
  /** Included in both, unchanged. */
  readonly unchanged: number;
  /** Prompt versions when they differ. */
  readonly promptVersion?: { readonly before?: string; readonly after?: string };
  /** Commits when they differ. */
  readonly commit?: { readonly before?: string; readonly after?: string };
  /** Sources whose status differs (for example `ok` in A, `failed` in B). */
  readonly sources: readonly { readonly source: ContextSource; readonly before?: string; readonly after?: string }[];
  /** Tokens used in A and B. */
  readonly tokens: { readonly before: number; readonly after: number };
}

/**
 * What changed between two contexts: memories that entered or left the included set (a dropped
 * candidate counts as absent, and its reason is in `before`/`after`), memories included in
 * both at another revision or score, and changed prompt version, commit and source outcomes.
 */
export function diffReceipts(a: ContextReceipt, b: ContextReceipt): ReceiptDiff {
  const key = (item: ReceiptItem): string => `${item.source}\u0000${item.id}`;
  const before = new Map(a.items.map((item) => [key(item), item]));
  const after = new Map(b.items.map((item) => [key(item), item]));
  const items: ReceiptItemChange[] = [];
  let unchanged = 0;
  for (const k of new Set([...before.keys(), ...after.keys()])) {
    const x = before.get(k);
    const y = after.get(k);
    const source = (x ?? y)?.source as ContextSource;
    const id = (x ?? y)?.id as string;
    const pair = { source, id, ...(x === undefined ? {} : { before: x }), ...(y === undefined ? {} : { after: y }) };
    const inA = x?.included === true;
    const inB = y?.included === true;
    if (inA && !inB) items.push({ ...pair, change: 'removed' });
    else if (!inA && inB) items.push({ ...pair, change: 'added' });
    else if (inA && inB && x.revision !== y.revision) items.push({ ...pair, change: 'revised' });
    else if (inA && inB && x.score !== y.score) items.push({ ...pair, change: 'rescored' });
    else if (inA && inB) unchanged += 1;
  }
  const order = (source: ContextSource): number => CONTEXT_SOURCES.indexOf(source);
  items.sort((p, q) => order(p.source) - order(q.source) || (p.id < q.id ? -1 : p.id > q.id ? 1 : 0));
  const sourceStatus = (receipt: ContextReceipt, source: ContextSource): string | undefined =>
    receipt.sources.find((entry) => entry.source === source)?.status;
  const sources = CONTEXT_SOURCES.flatMap((source) => {
    const x = sourceStatus(a, source);
    const y = sourceStatus(b, source);
    return x === y
      ? []
      : [{ source, ...(x === undefined ? {} : { before: x }), ...(y === undefined ? {} : { after: y }) }];
  });
  return {
    items,
    unchanged,
    ...(a.prompt_version === b.prompt_version
      ? {}
      : {
          promptVersion: {
            ...(a.prompt_version === undefined ? {} : { before: a.prompt_version }),
            ...(b.prompt_version === undefined ? {} : { after: b.prompt_version }),
          },
        }),
    ...(a.commit === b.commit
      ? {}
      : {
          commit: {
            ...(a.commit === undefined ? {} : { before: a.commit }),
            ...(b.commit === undefined ? {} : { after: b.commit }),
          },
        }),
    sources,
    tokens: { before: a.used_tokens, after: b.used_tokens },
  };
}
