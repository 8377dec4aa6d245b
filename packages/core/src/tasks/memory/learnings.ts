// Why: learnings from the end of a task become knowledge records, without piling up: the same
// fact again is a duplicate (the task is only noted on it), and a new fact about the same
// subject in the same scope supersedes the older one (seed: "the team uses Jest" then "the team
// migrated to Vitest"), while the same subject in another scope coexists. The rule is the one
// verified memories use (`contradictionKey`/`contradicts`), so both kinds of memory agree.
import { RepomemError } from '../../errors.js';
import { contradictionKey, contradicts } from '../../verified/contradictions.js';
import {
  branchLine,
  type LearnedOn,
  type LearnedOnInput,
  learnedOnFieldsOf,
  parseLearnedOnOption,
} from '../../verified/learned-on.js';
import type { TaskRecord, TaskRecordBackend, TaskRecordWrite } from '../record-backend.js';
import { assertTaskRecordId, assertTaskRecordRepo } from '../record-rules.js';
import {
  type InsightType,
  type KnowledgeData,
  KnowledgeDataSchema,
  knowledgeFromRecord,
  knowledgeRecordId,
  knowledgeSearchText,
} from './knowledge-record.js';
import {
  type LearningItem,
  type ParsedLearnings,
  parseLearnings,
  type SkippedLearningLine,
} from './learnings-parse.js';
import { MAX_UPDATE_ROUNDS, nextRecord } from './record-update.js';

/** Input of {@link recordLearnings}. */
export interface RecordLearningsInput {
  /** Where the records live. */
  readonly backend: TaskRecordBackend;
  /** Repository `owner/name`. */
  readonly repo: string;
  /** Task that produced the learnings (noted on each record). */
  readonly taskId?: string;
  /** The agent's answer (parsed with {@link parseLearnings}) or items parsed already. */
  readonly learnings: string | readonly LearningItem[];
  /** `repo_learning` (default; learnings prompt) or `agent_self_feedback` (self-feedback prompt). */
  readonly insightType?: InsightType;
  /**
   * Commit and branch of the task (see `resolveLearnedOn`); recorded on new learnings. A learning
   * already stored keeps where it was first learned. Absent = the default branch's scope.
   */
  readonly learnedOn?: LearnedOnInput;
  /**
   * The repository's default branch (default `main`): learnings learned there, or without a
   * branch, are shared; one learned on another branch supersedes only learnings of that branch.
   */
  readonly defaultBranch?: string;
  /** Clock (tests). */
  readonly now?: () => Date;
}

/** What happened to one learning. */
export type LearningOutcome =
  /** Stored as a new active record; `superseded` lists the ids it replaced. */
  | {
      readonly kind: 'stored';
      readonly id: string;
      readonly item: LearningItem;
      readonly superseded: readonly string[];
    }
  /** The same fact (same subject and scope) was already active; the task was noted on it. */
  | { readonly kind: 'duplicate'; readonly id: string; readonly item: LearningItem };

/** Result of {@link recordLearnings}. */
export type RecordLearningsResult =
  /** The answer said nothing new was learned; nothing written. */
  | { readonly kind: 'none' }
  /** One outcome per learning, in order, plus the lines the parser skipped. */
  | {
      readonly kind: 'recorded';
      readonly outcomes: readonly LearningOutcome[];
      readonly skipped: readonly SkippedLearningLine[];
    };

/**
 * Active knowledge records with the same subject key and scope key as `item` (any id) and on the
 * same branch `line` as `learnedOn` (recording a learning; promotion settling the default branch's).
 */
export async function contradictingLearnings(
  backend: TaskRecordBackend,
  repo: string,
  item: Pick<LearningItem, 'subject' | 'scope'>,
  line: (learned: LearnedOn | undefined) => string | null,
  learnedOn: LearnedOn | undefined,
): Promise<TaskRecord[]> {
  const key = contradictionKey(item);
  const candidates = await backend.search({ repo, kind: 'knowledge', text: item.subject.slice(0, 1000) });
  return candidates.filter((record) => {
    const parsed = KnowledgeDataSchema.safeParse(record.data);
    // A learning of a branch supersedes only learnings of that branch (see `branchLine`).
    return parsed.success && contradicts(parsed.data, key) && line(parsed.data.learned_on) === line(learnedOn);
  });
}

/**
 * The learned-on fields of a learning written again: a stored one keeps its own (where it was
 * first learned, promoted or quarantined), a new one records `learnedOn`.
 */
function learnedFields(current: KnowledgeData | undefined, learnedOn: LearnedOn | undefined): Partial<KnowledgeData> {
  if (current !== undefined) return learnedOnFieldsOf(current);
  return learnedOn === undefined ? {} : { learned_on: learnedOn };
}

async function recordOne(
  input: RecordLearningsInput,
  item: LearningItem,
  insightType: InsightType,
  now: () => Date,
  learnedOn: LearnedOn | undefined,
): Promise<LearningOutcome> {
  const { backend, repo, taskId } = input;
  const id = knowledgeRecordId(item.subject, item.scope, item.fact);
  for (let round = 1; round <= MAX_UPDATE_ROUNDS; round += 1) {
    const [existing, rivals] = await Promise.all([
      backend.get(repo, 'knowledge', id),
      contradictingLearnings(
        backend,
        repo,
        item,
        (learned) => branchLine(learned, input.defaultBranch ?? 'main'),
        learnedOn,
      ),
    ]);
    const at = now();
    // A stored record that is not valid knowledge is rewritten, never a reason to fail.
    const parsed = existing === undefined ? undefined : KnowledgeDataSchema.safeParse(existing.data);
    const current = parsed?.success === true ? parsed.data : undefined;
    const others = rivals.filter((record) => record.id !== id);
    if (current?.status === 'active') {
      if (taskId === undefined || current.tasks.includes(taskId) || current.tasks.length >= 20) {
        return { kind: 'duplicate', id, item };
      }
      const data: KnowledgeData = { ...current, tasks: [...current.tasks, taskId] };
      const write = nextRecord(repo, 'knowledge', id, existing, { text: knowledgeSearchText(data), data }, at);
      if ((await backend.apply([write])).ok) return { kind: 'duplicate', id, item };
      continue;
    }
    // New, or a fact that was superseded and is asserted again: it becomes the newest.
    const data: KnowledgeData = {
      subject: item.subject,
      scope: item.scope,
      fact: item.fact,
      insight_type: current?.insight_type ?? insightType,
      status: 'active',
      supersedes: [...new Set([...(current?.supersedes ?? []), ...others.map((record) => record.id)])].slice(-50),
      tasks: [...new Set([...(current?.tasks ?? []), ...(taskId === undefined ? [] : [taskId])])].slice(0, 20),
      created_at: current?.created_at ?? at.toISOString(),
      ...learnedFields(existing === undefined ? undefined : current, learnedOn),
    };
    const writes: TaskRecordWrite[] = [
      nextRecord(repo, 'knowledge', id, existing, { text: knowledgeSearchText(data), data }, at),
      ...others.map((record) => {
        const old = knowledgeFromRecord(record).data;
        const replaced: KnowledgeData = { ...old, status: 'superseded', superseded_by: id };
        return nextRecord(repo, 'knowledge', record.id, record, { text: record.text, data: replaced }, at);
      }),
    ];
    if ((await backend.apply(writes)).ok) {
      return { kind: 'stored', id, item, superseded: others.map((record) => record.id) };
    }
  }
  throw new RepomemError('CONFLICT', `learning "${item.subject}" kept conflicting with concurrent writers`);
}

/**
 * Record learnings as `knowledge` records, one at a time in order (so two learnings of one
 * answer about the same subject and scope leave the later one active):
 * - the same fact about the same subject and scope (compared case- and space-insensitively) is
 *   a `duplicate`: nothing new is stored, the task id is added to the record;
 * - a different fact about the same subject in the same scope supersedes every active one
 *   (they are marked `superseded`, in the same all-or-nothing write);
 * - the same subject in another scope, or in none, coexists.
 *
 * @throws RepomemError `INVALID_ARGUMENT` for a bad repository or task id; `CONFLICT` when
 *   concurrent writers kept changing the same records.
 */
export async function recordLearnings(input: RecordLearningsInput): Promise<RecordLearningsResult> {
  assertTaskRecordRepo(input.repo);
  if (input.taskId !== undefined) assertTaskRecordId(input.taskId);
  const insightType = input.insightType ?? 'repo_learning';
  const learnedOn = parseLearnedOnOption(input.learnedOn);
  let parsed: ParsedLearnings;
  if (typeof input.learnings === 'string') {
    parsed = parseLearnings(input.learnings, { freeText: insightType === 'agent_self_feedback' });
  } else {
    parsed = { kind: 'items', items: input.learnings, skipped: [] };
  }
  if (parsed.kind === 'none') return { kind: 'none' };
  const now = input.now ?? (() => new Date());
  const outcomes: LearningOutcome[] = [];
  for (const item of parsed.items) {
    const checked = KnowledgeDataSchema.pick({ subject: true, scope: true, fact: true }).safeParse(item);
    if (!checked.success) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `invalid learning "${String(item.subject)}": ${checked.error.message}`,
      );
    }
    outcomes.push(await recordOne(input, checked.data, insightType, now, learnedOn));
  }
  return { kind: 'recorded', outcomes, skipped: parsed.skipped };
}
