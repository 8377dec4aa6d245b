// Why: the outcomes of a bullet operation that a caller must handle, as a discriminated union
// (the table in reference/sepo-memory.md), so an agent framework can `switch (outcome.kind)`
// and the CLI can map each to Sepo's message, stream and exit code in one place.

/** Which memory file a bullet operation targets. Daily logs are reached via `dailyAppend`. */
export type MemoryFile = 'MEMORY.md' | 'PROJECT.md';

/** Outcome of `add`, `replace`, `remove` or `dailyAppend`. */
export type UpdateOutcome =
  /** The bullet was added (file created and seeded when it was missing or empty). */
  | { readonly kind: 'added'; readonly path: string; readonly bullet: string }
  /** Nothing written: the bullet already exists in the section (add), or the match already equals `with` (replace). */
  | { readonly kind: 'duplicate'; readonly path: string; readonly bullet: string }
  /** The matched bullet (every identical copy of it) was rewritten to `with`. */
  | { readonly kind: 'replaced'; readonly path: string; readonly from: string; readonly bullet: string }
  /** `with` already existed in the section: the matched bullet was removed and the existing one kept. */
  | { readonly kind: 'collapsed'; readonly path: string; readonly from: string; readonly bullet: string }
  /** The matched bullet (every identical copy of it) was removed. */
  | { readonly kind: 'removed'; readonly path: string; readonly bullet: string }
  /** The section does not exist in a non-empty file; `sections` lists those that do. */
  | {
      readonly kind: 'missing_section';
      readonly path: string;
      readonly section: string;
      readonly sections: readonly string[];
    }
  /** The section header appears more than once; the file must be fixed by hand. `lines` are 1-based. */
  | {
      readonly kind: 'duplicate_section';
      readonly path: string;
      readonly section: string;
      readonly lines: readonly number[];
    }
  /** No bullet in the section matched. */
  | { readonly kind: 'no_match'; readonly path: string; readonly section: string; readonly match: string }
  /** Two or more distinct bullets matched; `candidates` lists them in file order. */
  | {
      readonly kind: 'ambiguous';
      readonly path: string;
      readonly section: string;
      readonly match: string;
      readonly candidates: readonly string[];
    };

/** Outcome kinds that changed the file. */
export const WRITING_OUTCOMES: ReadonlySet<UpdateOutcome['kind']> = new Set([
  'added',
  'replaced',
  'collapsed',
  'removed',
]);

/** Outcome kinds that are caller-fixable failures (Sepo exit code 2). */
export const FAILED_OUTCOMES: ReadonlySet<UpdateOutcome['kind']> = new Set([
  'missing_section',
  'duplicate_section',
  'no_match',
  'ambiguous',
]);
