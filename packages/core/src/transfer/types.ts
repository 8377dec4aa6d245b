// Why: the report of a copy between two stores is read by people (the CLI's summary), by scripts
// (`--json`) and by tests, so its shape is declared once: what was copied, what was already
// there, and every item left alone because the target holds something else under its name.

/** What happened to one item (document, verified memory, task record). */
export type CopyOutcome =
  /** Written to the target (or, in a dry run, would be). */
  | 'copied'
  /** The target already holds exactly this. */
  | 'unchanged'
  /** The target holds something else under this name and `overwrite` is off: left alone. */
  | 'conflict'
  /** The target held something else under this name and `overwrite` replaced it. */
  | 'overwritten';

/** Counts of one part of a copy. */
export interface CopyCounts {
  readonly copied: number;
  readonly unchanged: number;
  readonly conflict: number;
  readonly overwritten: number;
}

/** One item the copy left alone (the target holds another version of it). */
export interface CopyConflict {
  /** `document`, `verified` or a task-record kind (`episode`, `rule`...). */
  readonly part: string;
  /** The document path or the record id. */
  readonly name: string;
}

/** Progress of a copy, reported after each batch. */
export interface CopyProgress {
  /** `history` (revisions replayed), `documents`, `verified` or `tasks`. */
  readonly phase: 'history' | 'documents' | 'verified' | 'tasks';
  /** Items of the phase handled so far. */
  readonly done: number;
  /** Items of the phase in all. */
  readonly total: number;
}

/** What {@link copyMemory} did (or, with `dryRun`, would do). */
export interface CopyReport {
  readonly dryRun: boolean;
  readonly from: string;
  readonly to: string;
  readonly repo: string;
  /**
   * The source's revisions replayed into the target (when both keep history and the target had no
   * documents), or why not.
   */
  readonly history:
    | { readonly kind: 'replayed'; readonly revisions: number }
    | { readonly kind: 'skipped'; readonly reason: string };
  /** Documents, byte for byte (repomem's own `.repomem/` documents excluded: records are copied as records). */
  readonly documents: CopyCounts & { readonly bytes: number };
  /** Verified memories of `repo`, with their ids. */
  readonly verified: CopyCounts;
  /** Task records of `repo` (episodes, rules, preferences, knowledge, receipts), with their ids. */
  readonly tasks: CopyCounts;
  /** Items left alone, in the order met (at most 1,000 listed). */
  readonly conflicts: readonly CopyConflict[];
}

/** Counts that a copy adds to as it goes. */
export class CountBox {
  copied = 0;
  unchanged = 0;
  conflict = 0;
  overwritten = 0;

  add(outcome: CopyOutcome): void {
    this[outcome] += 1;
  }

  counts(): CopyCounts {
    return { copied: this.copied, unchanged: this.unchanged, conflict: this.conflict, overwritten: this.overwritten };
  }
}
