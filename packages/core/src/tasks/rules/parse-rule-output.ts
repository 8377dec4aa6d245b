// Why: the model's answer is as untrusted as the review it read. This module turns it into
// candidate rules line by line: only `RULE:` lines outside code fences count, the source suffix
// must name the review the caller says it came from (never trusted for provenance, which comes
// from the caller), the scope must look like a place in the codebase, and every rule passes the
// injection screen. A line that passes is classified (rule-classifier.ts): `active` only for a code
// convention from a maintainer, `pending` otherwise. Each refused or pending line keeps its reasons.
import { z } from 'zod';
import { RepoSlugSchema } from '../../envelope/fields.js';
import {
  type RuleRejection,
  type RuleScreenOptions,
  screenRuleText,
  UNSURE_SCREEN_REASONS,
} from './injection-screen.js';
import {
  AUTHORITY_WEIGHTS,
  type AuthorAssociation,
  AuthorAssociationSchema,
  authorityOf,
  hasWriteAccess,
  type ReviewerAuthority,
} from './reviewer-authority.js';
import { classifyRuleText, type PendingReason } from './rule-classifier.js';
import { MAX_RULE_SCOPE_CHARS, type RuleProvenance, RuleProvenanceSchema } from './rule-record.js';

/** The marker of a rule line. */
export const RULE_LINE_PREFIX = 'RULE:';
/** The model's answer when a review holds no general rule. */
export const NO_RULES_MARKER = 'NO_RULES_EXTRACTED';
/** Most `RULE:` lines read from one answer; later ones are refused as `over_limit` unread. */
export const MAX_RULE_LINES = 100;
/** Most characters of a refused line echoed back in results. */
export const MAX_ECHOED_LINE_CHARS = 400;

/** Zod schema of where a model answer came from: the review, and the prompt version used. */
export const RuleOutputContextSchema = z.object({
  /** Repository. */
  repo: RepoSlugSchema,
  /** Pull request number. */
  pr: z.number().int().min(1),
  /** Pull request URL. */
  pr_url: z.string().max(400).optional(),
  /** Reviewer login (a leading `@` is dropped). */
  reviewer: z
    .string()
    .transform((value) => value.replace(/^@/, ''))
    .pipe(RuleProvenanceSchema.shape.reviewer),
  /** Reviewer's association. */
  association: AuthorAssociationSchema,
  /** Review id. */
  review_id: z.number().int().optional(),
  /** Review comment id. */
  comment_id: z.number().int().optional(),
  /** When the review was submitted. */
  reviewed_at: z.iso.datetime({ offset: true }).optional(),
  /** Extraction time (ISO 8601). */
  extracted_at: z.iso.datetime({ offset: true }),
  /** Version of the prompt the answer came from. */
  prompt_version: z.string().min(1).max(100),
});
/** Where a model answer came from (input form). */
export type RuleOutputContext = z.input<typeof RuleOutputContextSchema>;

/** Options of {@link parseRuleOutput}. */
export interface ParseRuleOutputOptions extends RuleScreenOptions {
  /**
   * Accept rules from reviewers without write access (CONTRIBUTOR, NONE...), at their lower
   * weight, as `pending`. Default `false`: such rules are rejected as `reviewer_without_write_access`.
   */
  readonly allowReviewersWithoutWriteAccess?: boolean;
  /**
   * Associations counted as the repository's maintainers (default {@link DEFAULT_MAINTAINER_ASSOCIATIONS}).
   * A rule from anyone else is at best `pending` (`reviewer_below_maintainers`).
   */
  readonly maintainers?: readonly AuthorAssociation[];
}

/** Associations counted as maintainers by default: those with write access. */
export const DEFAULT_MAINTAINER_ASSOCIATIONS: readonly AuthorAssociation[] = Object.freeze([
  'OWNER',
  'MEMBER',
  'COLLABORATOR',
]);

/** A rule that passed parsing and screening (not yet stored). */
export interface CandidateRule {
  /** 1-based line in the model answer. */
  readonly line: number;
  /**
   * `active`: a code convention from a maintainer, hydrated once stored; `pending`: stored for a
   * maintainer to approve (`approveRule`), never hydrated before. Absent = `active` (a rule built
   * by the caller, such as `manualRuleCandidate`).
   */
  readonly status?: 'active' | 'pending';
  /** Why the rule is pending (empty or absent when active). */
  readonly pendingReasons?: readonly PendingReason[];
  /** The rule text. */
  readonly rule: string;
  /** Its scope, when the line named one. */
  readonly scope?: string;
  /** Reviewer authority. */
  readonly authority: ReviewerAuthority;
  /** Weight by reviewer authority. */
  readonly weight: number;
  /** Provenance (from the caller's context, never from the answer). */
  readonly provenance: RuleProvenance;
}

/** A line that was refused, with every reason. */
export interface RejectedRuleLine {
  /** 1-based line in the model answer. */
  readonly line: number;
  /** The line as received (cut to {@link MAX_ECHOED_LINE_CHARS}). */
  readonly text: string;
  /** Why it was refused. */
  readonly rejections: readonly RuleRejection[];
}

/** Result of {@link parseRuleOutput}. */
export interface ParsedRuleOutput {
  /** Rules that will be hydrated once stored: code conventions from maintainers (status `active`). */
  readonly accepted: readonly CandidateRule[];
  /** Rules stored for a maintainer to decide, each with its reasons (status `pending`). */
  readonly pending: readonly CandidateRule[];
  /** `RULE:` lines that were refused. */
  readonly rejected: readonly RejectedRuleLine[];
  /** Number of other non-empty lines (prose, headings), which are ignored. */
  readonly ignoredLines: number;
  /** True when the answer said {@link NO_RULES_MARKER}. */
  readonly noRules: boolean;
}

const SOURCE_SUFFIX =
  /\s*\[\s*Source:\s*PR\s*#(\d+)\s*,\s*Reviewer:\s*@?([A-Za-z0-9-]+(?:\[bot\])?)\s*,\s*Extracted:\s*([0-9T:.+Z-]{8,40})\s*\]\s*$/i;
const ANY_SOURCE = /\[\s*Source\s*:/i;
const LIST_MARKER = /^\s*(?:[-*+\u2022]\s+|\d{1,3}[.)]\s+)?/;
const FENCE = /^\s*(```|~~~)/;
const SCOPE_PREFIX = /^\[([^\]]{1,200})\]\s*/;
const SCOPE_TEXT = /^[\p{L}\p{N} ._/*@{},()#-]+$/u;

function echo(line: string): string {
  return line.length <= MAX_ECHOED_LINE_CHARS ? line : `${line.slice(0, MAX_ECHOED_LINE_CHARS)}…`;
}

/** Problems with a scope: characters of a path, module or pattern only, and it passes the screen. */
function scopeProblems(scope: string): RuleRejection[] {
  if (scope.length > MAX_RULE_SCOPE_CHARS || !SCOPE_TEXT.test(scope)) {
    return [{ reason: 'invalid_scope', message: 'the scope is not a path, module name or file pattern' }];
  }
  const screened = screenRuleText(`scope ${scope}`);
  return screened.ok ? [] : [...screened.rejections];
}

/**
 * Parse a model answer to the extraction prompt into candidate rules and refused lines.
 * Provenance comes from `context` (validated with {@link RuleOutputContextSchema}; a ZodError
 * when invalid); a source suffix that names another pull request or reviewer refuses its line.
 */
export function parseRuleOutput(
  output: string,
  context: RuleOutputContext,
  options: ParseRuleOutputOptions = {},
): ParsedRuleOutput {
  const source = RuleOutputContextSchema.parse(context);
  const { repo: _repo, ...provenanceFields } = source;
  const provenance = RuleProvenanceSchema.parse(provenanceFields);
  const authority = authorityOf(source.association);
  const authorized = hasWriteAccess(source.association) || options.allowReviewersWithoutWriteAccess === true;
  const maintainer = (options.maintainers ?? DEFAULT_MAINTAINER_ASSOCIATIONS).includes(source.association);
  const accepted: CandidateRule[] = [];
  const pending: CandidateRule[] = [];
  const rejected: RejectedRuleLine[] = [];
  let ignoredLines = 0;
  let noRules = false;
  let inFence = false;
  let ruleLines = 0;
  const lines = output.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((raw, index) => {
    const lineNumber = index + 1;
    if (FENCE.test(raw)) {
      inFence = !inFence;
      return;
    }
    const line = raw.replace(LIST_MARKER, '');
    const isRule = line.slice(0, RULE_LINE_PREFIX.length).toUpperCase() === RULE_LINE_PREFIX;
    if (!isRule) {
      if (line.trim() === NO_RULES_MARKER && !inFence) noRules = true;
      else if (line.trim() !== '') ignoredLines += 1;
      return;
    }
    ruleLines += 1;
    if (ruleLines > MAX_RULE_LINES) {
      rejected.push({
        line: lineNumber,
        text: echo(raw),
        rejections: [{ reason: 'over_limit', message: `more than ${MAX_RULE_LINES} rule lines in one answer` }],
      });
      return;
    }
    const rejections: RuleRejection[] = [];
    if (inFence) rejections.push({ reason: 'code_fence', message: 'the rule line is inside a code block' });
    if (!authorized) {
      rejections.push({
        reason: 'reviewer_without_write_access',
        message: `@${source.reviewer} is ${source.association}, without write access to the repository`,
      });
    }
    let body = line.slice(RULE_LINE_PREFIX.length).trim();
    const suffix = SOURCE_SUFFIX.exec(body);
    if (suffix !== null) {
      body = body.slice(0, suffix.index).trim();
      const pr = Number(suffix[1]);
      const reviewer = suffix[2] ?? '';
      if (pr !== source.pr || reviewer.toLowerCase() !== source.reviewer.toLowerCase()) {
        rejections.push({
          reason: 'source_mismatch',
          message: `the source names PR #${pr} by @${reviewer}, not PR #${source.pr} by @${source.reviewer}`,
        });
      }
    } else if (ANY_SOURCE.test(body)) {
      rejections.push({ reason: 'source_mismatch', message: 'the source suffix is malformed or not at the end' });
    }
    let scope: string | undefined;
    const scoped = SCOPE_PREFIX.exec(body);
    if (scoped !== null) {
      scope = (scoped[1] ?? '').trim();
      body = body.slice(scoped[0].length).trim();
      rejections.push(...scopeProblems(scope));
    }
    const screened = screenRuleText(body, options);
    const reasons: PendingReason[] = [];
    if (!screened.ok) {
      const unsure = screened.rejections.every((r) => UNSURE_SCREEN_REASONS.includes(r.reason));
      if (unsure) {
        reasons.push({ reason: 'screen_unsure', message: screened.rejections.map((r) => r.message).join('; ') });
      } else rejections.push(...screened.rejections);
    }
    if (rejections.length > 0) {
      rejected.push({ line: lineNumber, text: echo(raw), rejections });
      return;
    }
    const text = body.trim();
    const classified = classifyRuleText(text);
    if (classified.kind === 'pending') reasons.push(...classified.reasons);
    if (!maintainer) {
      reasons.push({
        reason: 'reviewer_below_maintainers',
        message: `@${source.reviewer} is ${source.association}, not one of the repository's maintainers`,
      });
    }
    const candidate: CandidateRule = {
      line: lineNumber,
      status: reasons.length === 0 ? 'active' : 'pending',
      ...(reasons.length === 0 ? {} : { pendingReasons: reasons }),
      rule: text,
      ...(scope === undefined || scope === '' ? {} : { scope }),
      authority,
      weight: AUTHORITY_WEIGHTS[authority],
      provenance,
    };
    (reasons.length === 0 ? accepted : pending).push(candidate);
  });
  return { accepted, pending, rejected, ignoredLines, noRules };
}
