// Why: the outcome of checking one citation is something callers must branch on (use, re-anchor,
// invalidate, or retry later), so it is a discriminated union rather than a boolean.
import type { Citation } from '../verified/record.js';

/** Why a citation failed. */
export type CitationFailureReason =
  | 'file_missing'
  | 'snippet_missing'
  /** The diff since the citation's `verified_commit` touched the cited lines (and the snippet is gone). */
  | 'lines_changed'
  | 'out_of_range'
  | 'binary_file'
  | 'file_too_large';

/** Result of checking one citation against the current code. */
export type CitationCheck =
  /** The cited lines exist (and match `snippet_hash` when the citation has one). */
  | {
      readonly kind: 'valid';
      readonly citation: Citation;
      readonly content: string;
      /** The revision read (a commit id for git readers), when the check read one. */
      readonly revision?: string;
    }
  /**
   * The snippet moved (edits above it, a renamed file): `relocated` is the same citation at its
   * new path and lines (with the same hash).
   */
  | {
      readonly kind: 'relocated';
      readonly citation: Citation;
      readonly relocated: Citation;
      readonly content: string;
      /** The revision read (a commit id for git readers), when the check read one. */
      readonly revision?: string;
    }
  /** The citation no longer holds. */
  | {
      readonly kind: 'invalid';
      readonly citation: Citation;
      readonly reason: CitationFailureReason;
      readonly message: string;
    }
  /** The reader could not be reached; nothing can be concluded (never invalidates a memory). */
  | { readonly kind: 'unavailable'; readonly citation: Citation; readonly message: string };

/** Result of checking all citations of a memory (seed 003's VerificationResult, as a union per citation). */
export interface VerificationResult {
  /** True when every citation is `valid` or `relocated`. */
  readonly valid: boolean;
  /** One check per citation, in order. */
  readonly citations: readonly CitationCheck[];
  /** Citations `valid` or `relocated`. */
  readonly valid_count: number;
  /** Citations `invalid`. */
  readonly invalid_count: number;
  /** Citations `unavailable`. */
  readonly unavailable_count: number;
}
