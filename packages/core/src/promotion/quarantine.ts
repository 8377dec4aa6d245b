// Why: when a branch's pull request closes unmerged, what was learned on it is not known to be
// true anywhere (issue 26). Deleting it at once would lose a lesson someone may want back (the
// pull request is reopened, or the finding was right and the code was not); serving it would
// mislead. So such records are kept but quarantined (never served by reads), listed for a
// person's review, and deletable one by one or by branch.
import { RepomemError } from '../errors.js';
import type { LearnedOn, Quarantine } from '../verified/learned-on.js';
import { MemoryIdSchema, type VerifiedMemory } from '../verified/record.js';
import {
  type BranchRecord,
  type BranchRecordKind,
  type BranchRecordTargets,
  branchRecordSummary,
  checkTargets,
  readBranchRecords,
  updateMemory,
  updateTaskRecord,
} from './branch-records.js';
import { parseBranchOutcome } from './promote.js';

/** Options of {@link quarantineBranchMemories}. */
export interface QuarantineBranchMemoriesOptions extends BranchRecordTargets {
  /** The branch whose pull request closed unmerged (a `refs/heads/` prefix is dropped). */
  readonly ref: string;
  /** The pull request number, recorded in `quarantine`. */
  readonly pullRequest?: number;
  /** Clock (tests). */
  readonly now?: () => Date;
}

/** One quarantined record, as listings show it. */
export interface QuarantinedRecord {
  /** `memory` (verified memory), `knowledge`, `episode` or `rule`. */
  readonly kind: BranchRecordKind;
  /** Record id. */
  readonly id: string;
  /** Subject, rule or description (one line). */
  readonly summary: string;
  /** Where it was learned. */
  readonly learned_on?: LearnedOn;
  /** The quarantine mark: branch, pull request, when. */
  readonly quarantine: Quarantine;
}

/** Result of {@link quarantineBranchMemories}. */
export interface QuarantineReport {
  /** The branch. */
  readonly ref: string;
  /** The pull request, when given. */
  readonly pullRequest?: number;
  /** Records quarantined by this call (empty when run again). */
  readonly quarantined: readonly QuarantinedRecord[];
}

function listed(record: BranchRecord, quarantine: Quarantine): QuarantinedRecord {
  return {
    kind: record.kind,
    id: record.id,
    summary: branchRecordSummary(record),
    ...(record.fields.learned_on === undefined ? {} : { learned_on: record.fields.learned_on }),
    quarantine,
  };
}

/**
 * Quarantine every record learned on `ref` that is not quarantined yet (verified memories in any
 * status, learnings, rules; not episodes, which record the attempt and its outcome and stay served
 * on every branch): `quarantine = {reason: 'pull-request-closed', ref,
 * pull_request?, at}`. Quarantined records are kept, never served by reads, listed by
 * {@link listQuarantinedMemories} and removed by {@link deleteQuarantinedMemories}; a later
 * promotion of the same branch lifts the mark. Idempotent: a second run quarantines nothing.
 * Throws `INVALID_ARGUMENT` for a bad ref or pull request number or no backend.
 */
export async function quarantineBranchMemories(options: QuarantineBranchMemoriesOptions): Promise<QuarantineReport> {
  checkTargets(options, 'quarantineBranchMemories');
  const { ref, pullRequest } = parseBranchOutcome(options.ref, options.pullRequest);
  const now = options.now ?? (() => new Date());
  const records = await readBranchRecords(
    options,
    (fields) => fields.learned_on?.ref === ref && fields.quarantine === undefined,
  );
  const quarantined: QuarantinedRecord[] = [];
  // Episodes stay served: an episode is what an attempt did (a closed pull request is its
  // outcome), not a claim about the code, and hydration offers it to similar tasks on every
  // branch so a failed approach is not tried again.
  for (const record of records.filter((candidate) => candidate.kind !== 'episode')) {
    const at = now().toISOString();
    const mark: Quarantine = {
      reason: 'pull-request-closed',
      ref,
      ...(pullRequest === undefined ? {} : { pull_request: pullRequest }),
      at,
    };
    const qualifies = (learned: unknown, quarantine: unknown): boolean =>
      (learned as Partial<LearnedOn> | undefined)?.ref === ref && quarantine === undefined;
    const written =
      record.kind === 'memory'
        ? options.verified === undefined
          ? undefined
          : await updateMemory(options.verified, record.memory, async (current) =>
              qualifies(current.learned_on, current.quarantine)
                ? { record: { ...current, quarantine: mark }, events: [] }
                : undefined,
            )
        : options.tasks === undefined
          ? undefined
          : await updateTaskRecord(options.tasks, record.record, at, (data) =>
              qualifies(data.learned_on, data.quarantine) ? { ...data, quarantine: mark } : undefined,
            );
    if (written !== undefined) quarantined.push(listed(record, mark));
  }
  return { ref, ...(pullRequest === undefined ? {} : { pullRequest }), quarantined };
}

/** Options of {@link listQuarantinedMemories}. */
export interface ListQuarantinedOptions extends BranchRecordTargets {
  /** Only records quarantined for this branch. */
  readonly ref?: string;
}

/** Every quarantined record of the repository (of one branch when `ref` is given), memories first. */
export async function listQuarantinedMemories(options: ListQuarantinedOptions): Promise<QuarantinedRecord[]> {
  checkTargets(options, 'listQuarantinedMemories');
  const ref = options.ref === undefined ? undefined : parseBranchOutcome(options.ref, undefined).ref;
  const records = await readBranchRecords(
    options,
    (fields) => fields.quarantine !== undefined && (ref === undefined || fields.quarantine.ref === ref),
  );
  return records.map((record) => listed(record, record.fields.quarantine as Quarantine));
}

/** Options of {@link deleteQuarantinedMemories}: which quarantined records to delete. */
export interface DeleteQuarantinedOptions extends BranchRecordTargets {
  /** Delete every record quarantined for this branch. */
  readonly ref?: string;
  /** Delete these records (memory UUIDs or task-record ids); each must be quarantined. */
  readonly ids?: readonly string[];
}

/** Result of {@link deleteQuarantinedMemories}. */
export interface DeleteQuarantinedReport {
  /** Records deleted. */
  readonly deleted: readonly QuarantinedRecord[];
  /** Ids asked for that name no quarantined record (absent, or served: never deleted here). */
  readonly notQuarantined: readonly string[];
}

/**
 * Delete quarantined records: those of `ref`, or those named in `ids` (at least one of the two).
 * Only quarantined records are ever deleted: an id of a served record is reported in
 * `notQuarantined` and left alone. Throws `INVALID_ARGUMENT` for neither `ref` nor `ids`, and
 * `UNSUPPORTED` when the verified-memory backend cannot delete (it has no `delete`).
 */
export async function deleteQuarantinedMemories(options: DeleteQuarantinedOptions): Promise<DeleteQuarantinedReport> {
  checkTargets(options, 'deleteQuarantinedMemories');
  const ids = options.ids;
  if (ids !== undefined && (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id.length === 0))) {
    throw new RepomemError('INVALID_ARGUMENT', 'ids must be an array of record ids');
  }
  if (options.ref === undefined && (ids === undefined || ids.length === 0)) {
    throw new RepomemError('INVALID_ARGUMENT', 'say which quarantined records to delete: a ref, ids, or both');
  }
  const quarantined = await listQuarantinedMemories(options);
  const wanted = ids === undefined ? undefined : new Set(ids);
  const chosen = quarantined.filter((record) => wanted === undefined || wanted.has(record.id));
  const deleted: QuarantinedRecord[] = [];
  for (const record of chosen) {
    if (record.kind === 'memory') {
      const backend = options.verified;
      if (backend === undefined) continue;
      if (backend.delete === undefined) {
        throw new RepomemError(
          'UNSUPPORTED',
          `the ${backend.name} verified-memory backend cannot delete memories; memory ${record.id} stays quarantined (never served)`,
        );
      }
      if (!MemoryIdSchema.safeParse(record.id).success) continue;
      const current: VerifiedMemory | undefined = await backend.get(options.repo, record.id);
      if (current?.quarantine === undefined) continue;
      if (await backend.delete(options.repo, record.id, current.revision)) deleted.push(record);
    } else {
      const backend = options.tasks;
      if (backend === undefined) continue;
      const current = await backend.get(options.repo, record.kind, record.id);
      if (current?.data.quarantine === undefined) continue;
      if (await backend.delete(options.repo, record.kind, record.id)) deleted.push(record);
    }
  }
  const found = new Set(deleted.map((record) => record.id));
  return { deleted, notQuarantined: (ids ?? []).filter((id) => !found.has(id)) };
}
