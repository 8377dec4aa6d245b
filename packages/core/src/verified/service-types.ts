// Why: the verified-memory API agents call (seed 003's tool list plus seed 004's contradiction
// rule), declared once so the CLI, the stores and the docs agree on every outcome a caller must
// handle.
import type { CitationReader } from '../citations/reader.js';
import type { CitationCheck, VerificationResult } from '../citations/verification-types.js';
import type { ScopeVerdict } from '../scope/branch-scope.js';
import type { RecordStats, VerifiedMemoryBackend } from './backend.js';
import type { ImpactReport } from './impact.js';
import type { Citation, StoreMemoryInput, TelemetryEvent, VerifiedMemory } from './record.js';

/** Options of `openVerifiedMemory`. */
export interface VerifiedMemoryOptions {
  /** Where records and telemetry live. */
  readonly backend: VerifiedMemoryBackend;
  /** Reads cited code; without one, `store` cannot compute snippet hashes and `recall`/`verify` refuse. */
  readonly citations?: CitationReader;
  /** Max age in days before an unused memory expires (default 28); renewed on verified use. */
  readonly maxAgeDays?: number;
  /** Clock (tests). */
  readonly now?: () => Date;
  /** Id generator (tests); default `crypto.randomUUID`. */
  readonly newId?: () => string;
  /** Called with every telemetry event after it is stored. A throwing subscriber is ignored. */
  readonly onEvent?: (event: TelemetryEvent) => void;
  /**
   * The repository's default branch (branch scope: what was learned there is visible on every
   * branch). Default: the citation reader's answer, else `main`.
   */
  readonly defaultBranch?: string;
}

/**
 * The ref a read is scoped to (issue 26's branch scope). A memory learned on a branch is served
 * and verified only on that branch and on refs whose history contains the commit it was learned
 * at; memories learned on the default branch (or before branch scope existed) everywhere;
 * quarantined ones nowhere.
 */
export interface ScopeOptions {
  /**
   * The revision the code is read at (default the reader's HEAD); when it is a branch name it is
   * also the branch the read is scoped to (a commit id, `HEAD` or `HEAD~2` is not: then the
   * reader's current branch is), and its history decides which branch memories it contains.
   */
  readonly ref?: string;
  /**
   * The branch worked on, when `ref` is absent or not a branch name (in Actions the checkout is
   * a merge commit while the branch is `GITHUB_HEAD_REF`). Default: `ref`, else the citation
   * reader's current branch.
   */
  readonly branch?: string;
}

/** Outcome of `store`. */
export type StoreOutcome =
  /** Stored; `superseded` lists active memories with the same subject and scope it replaced. */
  | { readonly kind: 'stored'; readonly memory: VerifiedMemory; readonly superseded: readonly VerifiedMemory[] }
  /** A citation does not hold in the current code (checked when a reader is configured); nothing stored. */
  | { readonly kind: 'rejected'; readonly checks: readonly CitationCheck[] };

/** Outcome of operations on one existing memory. */
export type MemoryChangeOutcome =
  | { readonly kind: 'changed'; readonly memory: VerifiedMemory }
  | { readonly kind: 'not_found'; readonly id: string }
  /** The memory is `invalid` or `superseded`; only active memories change. */
  | { readonly kind: 'not_active'; readonly memory: VerifiedMemory };

/** Outcome of `supersede`. */
export type SupersedeOutcome =
  | { readonly kind: 'superseded'; readonly previous: VerifiedMemory; readonly replacement: VerifiedMemory }
  | { readonly kind: 'not_found'; readonly id: string }
  | { readonly kind: 'not_active'; readonly memory: VerifiedMemory }
  | { readonly kind: 'rejected'; readonly checks: readonly CitationCheck[] };

/** Outcome of `verify`: what checking one memory's citations concluded and what was done. */
export type VerifyOutcome =
  /** Every citation holds; the memory was refreshed with its re-anchored citations. */
  | { readonly kind: 'valid'; readonly memory: VerifiedMemory; readonly checks: readonly CitationCheck[] }
  /** A citation no longer holds; the memory was invalidated. */
  | { readonly kind: 'invalidated'; readonly memory: VerifiedMemory; readonly checks: readonly CitationCheck[] }
  /** The code could not be read (or the memory changed meanwhile); nothing was changed. */
  | { readonly kind: 'unverified'; readonly memory: VerifiedMemory; readonly checks: readonly CitationCheck[] }
  /**
   * The memory is not in the scope of the ref verified against (learned on a branch this ref does
   * not contain, or quarantined): not checked, nothing changed, never invalidated by this code.
   */
  | {
      readonly kind: 'out_of_scope';
      readonly memory: VerifiedMemory;
      readonly verdict: ScopeVerdict & { readonly kind: 'out_of_scope' };
    }
  | { readonly kind: 'not_found'; readonly id: string }
  | { readonly kind: 'not_active'; readonly memory: VerifiedMemory };

/** Options of `recall`. */
export interface RecallOptions extends ScopeOptions {
  /** Most memories in scope to consider (default 50). */
  readonly limit?: number;
}

/** Result of `recall`: only memories verified just now are in `memories`. */
export interface RecallResult {
  /** Verified now (re-anchored where lines moved), refreshed, expiry renewed. Safe to inject. */
  readonly memories: readonly VerifiedMemory[];
  /** Invalidated by this recall, with the failing checks. */
  readonly invalidated: readonly { readonly memory: VerifiedMemory; readonly checks: readonly CitationCheck[] }[];
  /** Not verifiable now (reader unavailable); not returned, not invalidated. */
  readonly unverified: readonly { readonly memory: VerifiedMemory; readonly checks: readonly CitationCheck[] }[];
  /** Memories passed over as out of the ref's scope: neither verified nor returned nor changed. */
  readonly outOfScope?: number;
}

/** Result of `stats`: record counts plus the verification success rate. */
export interface VerifiedMemoryStats extends RecordStats {
  /** verified_valid / (verified_valid + verified_invalid), or `null` before any verification. */
  readonly verificationSuccessRate: number | null;
}

/** The verified-memory service (seed 003). Every method is scoped to one repository. */
export interface VerifiedMemoryService {
  /** Store a memory (citations required); supersedes active memories with the same subject and scope. */
  store(input: StoreMemoryInput): Promise<StoreOutcome>;
  /**
   * Active, unexpired memories in the scope of the ref (see {@link ScopeOptions}), most recently
   * refreshed first (default limit 50); emits `retrieved`.
   */
  getRecent(repo: string, limit?: number, scope?: ScopeOptions): Promise<VerifiedMemory[]>;
  /** Active memories citing `path`, in the scope of the ref. */
  searchByPath(repo: string, path: string, scope?: ScopeOptions): Promise<VerifiedMemory[]>;
  /** Active memories matching words of `query` literally, in the scope of the ref. */
  search(repo: string, query: string, limit?: number, scope?: ScopeOptions): Promise<VerifiedMemory[]>;
  /** One memory in any status. */
  get(repo: string, id: string): Promise<VerifiedMemory | undefined>;
  /** Mark verified and still useful: bumps `refreshed_at`, `verification_count`, renews expiry. */
  refresh(repo: string, id: string): Promise<MemoryChangeOutcome>;
  /** Mark invalid with a reason. */
  invalidate(repo: string, id: string, reason: string): Promise<MemoryChangeOutcome>;
  /** Replace with a corrected memory, keeping the chain (`superseded_by` / `supersedes`). */
  supersede(repo: string, id: string, corrected: Omit<StoreMemoryInput, 'repo'>): Promise<SupersedeOutcome>;
  /** Record that a memory was used in a task (`applied` event). */
  logApplied(repo: string, id: string, details?: Record<string, unknown>): Promise<MemoryChangeOutcome>;
  /** Read the code at one citation. */
  readCitation(repo: string, citation: Citation, ref?: string): Promise<CitationCheck>;
  /** Check every citation. */
  verifyCitations(repo: string, citations: readonly Citation[], ref?: string): Promise<VerificationResult>;
  /**
   * Verify one memory as `recall` verifies each: refresh it with its re-anchored citations (renamed
   * files, moved lines) when every citation holds, invalidate it when one does not; a memory out
   * of the ref's scope is `out_of_scope` and left unchanged.
   */
  verify(repo: string, id: string, ref?: string, scope?: Pick<ScopeOptions, 'branch'>): Promise<VerifyOutcome>;
  /** get-recent → verify each → refresh valid / invalidate invalid, as one call. */
  recall(repo: string, options?: RecallOptions): Promise<RecallResult>;
  /**
   * What the diff from `base` to `head` (default the reader's HEAD) does to the active memories:
   * those whose cited files it changes, `valid`, `reanchored` or `invalidated` (read-only; see
   * `checkMemoryImpact`). Needs a reader that maps lines (git), else `UNSUPPORTED`.
   */
  impact(repo: string, options: { readonly base: string; readonly head?: string }): Promise<ImpactReport>;
  /** Counts and verification success rate. */
  stats(repo: string): Promise<VerifiedMemoryStats>;
  /** Telemetry of a repository (optionally one memory), oldest first. */
  events(repo: string, options?: { readonly memoryId?: string; readonly limit?: number }): Promise<TelemetryEvent[]>;
  /** Close the backend. */
  close(): Promise<void>;
}
