// Why: prompt templates refer to the envelope through `${VAR}` placeholders; this is the one
// mapping from envelope fields to variable names (Sepo's names, plus its compatibility aliases).
import type { RuntimeEnvelope } from './envelope.js';

/** Names of the variables {@link envelopeVariables} produces. */
export const ENVELOPE_VARIABLE_NAMES = [
  'REPO_SLUG',
  'ROUTE',
  'SOURCE_KIND',
  'TARGET_KIND',
  'TARGET_NUMBER',
  'TARGET_URL',
  'REQUEST_TEXT',
  'MENTION_BODY',
  'REQUESTED_BY',
  'APPROVAL_COMMENT_URL',
  'WORKFLOW',
  'LANE',
  'THREAD_KEY',
  'PR_NUMBER',
  'GITHUB_REPOSITORY',
] as const;

/** One envelope-derived prompt variable name. */
export type EnvelopeVariableName = (typeof ENVELOPE_VARIABLE_NAMES)[number];

/**
 * The prompt variables derived from an envelope. `MENTION_BODY` (= `REQUEST_TEXT`), `PR_NUMBER`
 * (= `TARGET_NUMBER`) and `GITHUB_REPOSITORY` (= `REPO_SLUG`) are Sepo's compatibility aliases;
 * `APPROVAL_COMMENT_URL` is `''` when absent.
 */
export function envelopeVariables(envelope: RuntimeEnvelope): Record<EnvelopeVariableName, string> {
  return {
    REPO_SLUG: envelope.repo_slug,
    ROUTE: envelope.route,
    SOURCE_KIND: envelope.source_kind,
    TARGET_KIND: envelope.target_kind,
    TARGET_NUMBER: String(envelope.target_number),
    TARGET_URL: envelope.target_url,
    REQUEST_TEXT: envelope.request_text,
    MENTION_BODY: envelope.request_text,
    REQUESTED_BY: envelope.requested_by,
    APPROVAL_COMMENT_URL: envelope.approval_comment_url ?? '',
    WORKFLOW: envelope.workflow,
    LANE: envelope.lane,
    THREAD_KEY: envelope.thread_key,
    PR_NUMBER: String(envelope.target_number),
    GITHUB_REPOSITORY: envelope.repo_slug,
  };
}
