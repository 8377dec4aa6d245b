// Why: the sync's cursors are Sepo's `state.json` (`refs/agent-memory-state/sync` on the git
// store, a state row elsewhere), read and written through the store-neutral state API so Sepo's
// own tools and the scan gate keep reading them. A state of another repository or a corrupt one is
// ignored with a notice (a fresh cursor, as Sepo does). What Sepo's schema has no field for (where
// an interrupted page walk resumes, items known to have left the repository) lives under one extra
// `repomem_mirror` key, which Sepo's readers keep and ignore. Every write is a compare-and-swap; a
// concurrent writer's state is read again and this run's changes applied on top.
import { type JsonValue, type MemoryStore, parseSyncState, RepomemError } from '@repomem/core';
import { z } from 'zod';
import { MIRROR_LANES, type MirrorLane } from './graphql-selections.js';

/** Key of the sync state in the store's state API (git: `refs/agent-memory-state/sync`). */
export const SYNC_STATE_KEY = 'sync';

const IsoSchema = z.string().refine((value) => !Number.isNaN(Date.parse(value)));

/** Where an interrupted walk of one lane resumes: the page cursor, and the time window it covers. */
export const LaneResumeSchema = z.object({
  /** GitHub's cursor after the last page written. */
  after: z.string().min(1),
  /** Items updated before this were mirrored already (the walk stops there). */
  floor: z.union([IsoSchema, z.literal('')]),
  /** Greatest `updatedAt` written by the walk; the lane's cursor once it finishes. */
  ceiling: z.union([IsoSchema, z.literal('')]),
});

/** Number of an item that left the repository (deleted, or transferred elsewhere), already reported. */
export const VanishedItemSchema = z.number().int().positive();

/** The `repomem_mirror` member of the sync state. */
export const MirrorExtensionSchema = z.object({
  version: z.literal(1),
  resume: z.partialRecord(z.enum(['issues', 'pulls', 'discussions']), LaneResumeSchema).default({}),
  vanished: z.partialRecord(z.enum(['issues', 'pulls', 'discussions']), z.array(VanishedItemSchema)).default({}),
});

/** Resume point of a lane. */
export type LaneResume = z.infer<typeof LaneResumeSchema>;
/** A reported vanished item as the state records it: its number. */
export type VanishedItem = z.infer<typeof VanishedItemSchema>;
/** The repomem member of the sync state. */
export type MirrorExtension = z.infer<typeof MirrorExtensionSchema>;

/** The sync state as this run sees it. */
export interface MirrorSyncState {
  /** Per-lane cursors (`''`: never synced). */
  readonly cursors: Readonly<Record<MirrorLane, string>>;
  readonly lastActivityAt: string;
  readonly extension: MirrorExtension;
}

/** One change to the state: applied to whatever is stored when it is written. */
export interface StatePatch {
  readonly cursors?: Partial<Record<MirrorLane, string>>;
  /** Lanes whose resume point is set (an object) or cleared (`null`). */
  readonly resume?: Partial<Record<MirrorLane, LaneResume | null>>;
  readonly vanished?: Partial<Record<MirrorLane, readonly VanishedItem[]>>;
  /** Moves `last_activity_at` (only ever forward). */
  readonly activityAt?: string;
  /** Sets `last_sync_at` (a finished sync). */
  readonly syncedAt?: string;
  readonly runUrl?: string;
}

type StoredState = Record<string, JsonValue>;

/** Vanished item numbers remembered per lane (older ones may be reported again). */
const MAX_VANISHED_PER_LANE = 500;

const EMPTY_EXTENSION: MirrorExtension = { version: 1, resume: {}, vanished: {} };

function later(a: string, b: string | undefined): string {
  if (b === undefined || b === '') return a;
  if (a === '') return b;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

/** The state store of one sync: read once, then patched with a compare-and-swap per write. */
export class MirrorStateStore {
  private version: string | null | undefined;
  private stored: StoredState | undefined;

  private constructor(
    private readonly store: MemoryStore,
    private readonly repo: string,
    private readonly clock: () => Date,
    /** Notices about the stored state (ignored, corrupt). */
    readonly notices: string[],
  ) {}

  /** Read the state of `repo`; an unusable one is reported in `notices` and treated as absent. */
  static async open(store: MemoryStore, repo: string, clock: () => Date): Promise<MirrorStateStore> {
    const state = new MirrorStateStore(store, repo, clock, []);
    await state.reload(true);
    return state;
  }

  private async reload(report: boolean): Promise<void> {
    let entry: Awaited<ReturnType<MemoryStore['state']['get']>>;
    try {
      entry = await this.store.state.get(SYNC_STATE_KEY);
    } catch (error) {
      if (!(error instanceof RepomemError) || error.code !== 'INVALID_DOCUMENT') throw error;
      // Not JSON at all: ignored; the next write replaces it (no version to compare with).
      if (report) this.notices.push(`sync state ignored (corrupt: ${error.message}); starting a fresh cursor`);
      this.version = undefined;
      this.stored = undefined;
      return;
    }
    this.version = entry?.version ?? null;
    this.stored = undefined;
    if (entry === undefined) return;
    const parsed = parseSyncState(entry.value, this.repo);
    if (parsed.ok) {
      this.stored = parsed.state as unknown as StoredState;
      return;
    }
    if (report) this.notices.push(`${parsed.message}; starting a fresh cursor`);
  }

  /** The state as read (or as last written by this run). */
  current(): MirrorSyncState {
    const stored = this.stored;
    const cursors = (stored?.cursors ?? {}) as Record<string, JsonValue>;
    const extension = MirrorExtensionSchema.safeParse(stored?.repomem_mirror);
    if (stored?.repomem_mirror !== undefined && !extension.success && !this.reportedExtension) {
      this.reportedExtension = true;
      this.notices.push('sync state: the repomem_mirror resume data is invalid and was ignored');
    }
    const cursor = (lane: MirrorLane): string => {
      const value = cursors[lane];
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : '';
    };
    return {
      cursors: { issues: cursor('issues'), pulls: cursor('pulls'), discussions: cursor('discussions') },
      lastActivityAt: typeof stored?.last_activity_at === 'string' ? stored.last_activity_at : '',
      extension: extension.success ? extension.data : structuredClone(EMPTY_EXTENSION),
    };
  }

  private reportedExtension = false;

  private apply(base: StoredState | undefined, patch: StatePatch): StoredState {
    const now = this.clock().toISOString();
    const current = this.currentOf(base);
    const cursors: Record<string, JsonValue> = { ...((base?.cursors ?? {}) as Record<string, JsonValue>) };
    for (const lane of MIRROR_LANES) {
      cursors[lane] = later(current.cursors[lane], patch.cursors?.[lane]);
    }
    const resume = { ...current.extension.resume };
    for (const [lane, value] of Object.entries(patch.resume ?? {}) as [MirrorLane, LaneResume | null][]) {
      if (value === null) delete resume[lane];
      else resume[lane] = value;
    }
    const vanished = { ...current.extension.vanished };
    for (const [lane, numbers] of Object.entries(patch.vanished ?? {}) as [MirrorLane, VanishedItem[]][]) {
      const known = new Set([...(vanished[lane] ?? []), ...numbers]);
      // The state must stay small (a state value holds at most 16,000 characters): the newest numbers are kept.
      vanished[lane] = [...known].sort((a, b) => a - b).slice(-MAX_VANISHED_PER_LANE);
    }
    const extension: MirrorExtension = { version: 1, resume, vanished };
    const lastActivity =
      patch.activityAt === undefined ? current.lastActivityAt : later(current.lastActivityAt, patch.activityAt);
    return {
      ...(base ?? {}),
      schema_version: 1,
      repo_slug: this.repo,
      last_sync_at: patch.syncedAt ?? (typeof base?.last_sync_at === 'string' ? base.last_sync_at : ''),
      last_activity_at: lastActivity,
      cursors,
      last_run_url: patch.runUrl ?? (typeof base?.last_run_url === 'string' ? base.last_run_url : ''),
      created_at: typeof base?.created_at === 'string' && base.created_at !== '' ? base.created_at : now,
      updated_at: now,
      repomem_mirror: extension as unknown as JsonValue,
    };
  }

  private currentOf(base: StoredState | undefined): MirrorSyncState {
    const saved = this.stored;
    this.stored = base;
    try {
      return this.current();
    } finally {
      this.stored = saved;
    }
  }

  /** Write `patch` onto the stored state (compare-and-swap; a concurrent write is read and the patch applied again). */
  async write(patch: StatePatch): Promise<void> {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const next = this.apply(this.stored, patch);
      const result = await this.store.state.put(SYNC_STATE_KEY, next, this.version);
      if (result.status === 'committed') {
        this.version = result.version;
        this.stored = next;
        return;
      }
      await this.reload(false);
    }
    throw new RepomemError('CONFLICT', 'the sync state kept changing under this sync (is another sync running?)');
  }
}
