// Why: Sepo builds a run's envelope from the workflow's event context (the event payload, the
// event name, the repository, the route and lane inputs), so workflows never assemble it by hand.
// This is the same builder, pure: the caller reads GITHUB_EVENT_PATH and passes the parsed
// payload and the environment values in; the payload's fields are zod-checked before use.
import type { z } from 'zod';
import { type EnvelopeOptions, type RuntimeEnvelope, validateEnvelope } from './envelope.js';
import {
  DiscussionCommentPayloadSchema,
  DiscussionPayloadSchema,
  IssueCommentPayloadSchema,
  IssuesPayloadSchema,
  PullRequestPayloadSchema,
  PullRequestReviewCommentPayloadSchema,
  PullRequestReviewPayloadSchema,
  SchedulePayloadSchema,
  WorkflowDispatchPayloadSchema,
} from './event-payloads.js';
import { DEFAULT_LANE, ENVELOPE_SCHEMA_VERSION, type TargetKind } from './fields.js';
import { joinThreadKey } from './thread-key-fields.js';
import { describeValue, toRootedIssues, type ValidationIssue } from './validation-issues.js';

/** The GitHub Actions environment values the builder reads (all optional; missing ones are reported). */
export interface EventEnvironment {
  /** The event that started the run (`issue_comment`, `schedule`...). */
  readonly GITHUB_EVENT_NAME?: string | undefined;
  /** `owner/repo`. */
  readonly GITHUB_REPOSITORY?: string | undefined;
  /** Login that started the run; the requester of `schedule` and `workflow_dispatch` runs. */
  readonly GITHUB_ACTOR?: string | undefined;
  /** `https://github.com` or a GitHub Enterprise URL (repository URL of repository-scoped runs). */
  readonly GITHUB_SERVER_URL?: string | undefined;
  /** `owner/repo/.github/workflows/<file>@<ref>`; its file name is the envelope's `workflow`. */
  readonly GITHUB_WORKFLOW_REF?: string | undefined;
}

/** Input of {@link envelopeFromEvent}. */
export interface EnvelopeFromEventInput {
  /** The parsed JSON of the file at `GITHUB_EVENT_PATH`. */
  readonly payload: unknown;
  /** The environment values (see {@link EventEnvironment}). */
  readonly env: EventEnvironment;
  /** The route the workflow runs (its `route` input). */
  readonly route: string;
  /** Session lane (default `default`; `''` also means `default`). */
  readonly lane?: string | undefined;
  /** Workflow file name; default: the file name in `GITHUB_WORKFLOW_REF`, else `''`. */
  readonly workflow?: string | undefined;
}

/** Result of {@link envelopeFromEvent}. */
export type EnvelopeFromEvent =
  | { readonly ok: true; readonly envelope: RuntimeEnvelope }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/** Events an envelope is built from. */
export const ENVELOPE_EVENTS = [
  'issue_comment',
  'issues',
  'pull_request',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment',
  'discussion',
  'discussion_comment',
  'workflow_dispatch',
  'schedule',
] as const;

interface EventContext {
  readonly source_kind: string;
  readonly target_kind: TargetKind;
  readonly target_number: number;
  readonly target_url: string;
  readonly request_text: string;
  readonly requested_by: string | undefined;
}

type Extracted = { ok: true; context: EventContext } | { ok: false; issues: ValidationIssue[] };

function read<T>(schema: z.ZodType<T>, payload: unknown, then: (value: T) => EventContext): Extracted {
  const result = schema.safeParse(payload, { reportInput: true });
  if (!result.success) return { ok: false, issues: toRootedIssues(result.error.issues, 'event') };
  return { ok: true, context: then(result.data) };
}

function repositoryUrl(payload: { repository?: { html_url: string } | undefined }, env: EventEnvironment): string {
  if (payload.repository !== undefined) return payload.repository.html_url;
  const server = (env.GITHUB_SERVER_URL ?? '').replace(/\/+$/, '') || 'https://github.com';
  return `${server}/${env.GITHUB_REPOSITORY ?? ''}`;
}

function stringInput(inputs: Record<string, unknown> | null | undefined, names: readonly string[]): string {
  for (const name of names) {
    const value = inputs?.[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return '';
}

function extract(eventName: string, payload: unknown, env: EventEnvironment): Extracted {
  switch (eventName) {
    case 'issue_comment':
      return read(IssueCommentPayloadSchema, payload, (p) => ({
        source_kind: 'issue_comment',
        target_kind: p.issue.pull_request === undefined ? 'issue' : 'pull_request',
        target_number: p.issue.number,
        target_url: p.issue.html_url,
        request_text: p.comment.body,
        requested_by: p.comment.user.login,
      }));
    case 'issues':
      return read(IssuesPayloadSchema, payload, (p) => ({
        source_kind: 'issue',
        target_kind: 'issue',
        target_number: p.issue.number,
        target_url: p.issue.html_url,
        request_text: p.issue.body,
        requested_by: p.sender.login,
      }));
    case 'pull_request':
    case 'pull_request_target':
      return read(PullRequestPayloadSchema, payload, (p) => ({
        source_kind: 'pull_request',
        target_kind: 'pull_request',
        target_number: p.pull_request.number,
        target_url: p.pull_request.html_url,
        request_text: p.pull_request.body,
        requested_by: p.sender.login,
      }));
    case 'pull_request_review':
      return read(PullRequestReviewPayloadSchema, payload, (p) => ({
        source_kind: 'pull_request_review',
        target_kind: 'pull_request',
        target_number: p.pull_request.number,
        target_url: p.pull_request.html_url,
        request_text: p.review.body,
        requested_by: p.review.user.login,
      }));
    case 'pull_request_review_comment':
      return read(PullRequestReviewCommentPayloadSchema, payload, (p) => ({
        source_kind: 'pull_request_review_comment',
        target_kind: 'pull_request',
        target_number: p.pull_request.number,
        target_url: p.pull_request.html_url,
        request_text: p.comment.body,
        requested_by: p.comment.user.login,
      }));
    case 'discussion':
      return read(DiscussionPayloadSchema, payload, (p) => ({
        source_kind: 'discussion',
        target_kind: 'discussion',
        target_number: p.discussion.number,
        target_url: p.discussion.html_url,
        request_text: p.discussion.body,
        requested_by: p.sender.login,
      }));
    case 'discussion_comment':
      return read(DiscussionCommentPayloadSchema, payload, (p) => ({
        source_kind: 'discussion_comment',
        target_kind: 'discussion',
        target_number: p.discussion.number,
        target_url: p.discussion.html_url,
        request_text: p.comment.body,
        requested_by: p.comment.user.login,
      }));
    case 'workflow_dispatch':
      // Repository-scoped (number 0), like Sepo's scan and sync runs; the request is an input.
      return read(WorkflowDispatchPayloadSchema, payload, (p) => ({
        source_kind: 'workflow_dispatch',
        target_kind: 'repository',
        target_number: 0,
        target_url: repositoryUrl(p, env),
        request_text: stringInput(p.inputs, ['request_text', 'request', 'prompt']),
        requested_by: p.sender?.login ?? env.GITHUB_ACTOR,
      }));
    case 'schedule':
      return read(SchedulePayloadSchema, payload, (p) => ({
        source_kind: 'schedule',
        target_kind: 'repository',
        target_number: 0,
        target_url: repositoryUrl(p, env),
        request_text: '',
        // A cron run has no sender; GitHub names the actor that last edited the schedule.
        requested_by: env.GITHUB_ACTOR || 'github-actions[bot]',
      }));
    default:
      return {
        ok: false,
        issues: [
          {
            path: 'GITHUB_EVENT_NAME',
            message: `GITHUB_EVENT_NAME: expected one of ${ENVELOPE_EVENTS.join(', ')}, got ${describeValue(eventName)}`,
          },
        ],
      };
  }
}

/** The workflow file name in `owner/repo/.github/workflows/<file>@<ref>`, or `''`. */
export function workflowFileOf(workflowRef: string | undefined): string {
  const path = (workflowRef ?? '').split('@')[0] ?? '';
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * Builds the RuntimeEnvelope of a GitHub Actions run from its event, as Sepo does: the target
 * (issue, pull request or discussion; the repository with number 0 for `workflow_dispatch` and
 * `schedule`), the request text (the comment, review or body that triggered the run), the
 * requester, and the route and lane the workflow passes. Pure: the caller reads
 * `GITHUB_EVENT_PATH` and hands over the parsed payload and the environment values. Every
 * problem is reported (missing payload fields by their path under `event`, a missing
 * `GITHUB_REPOSITORY`, an unsupported event, and every envelope rule, see `validateEnvelope`).
 *
 * @example
 * ```ts
 * const payload = JSON.parse(readFileSync(process.env.GITHUB_EVENT_PATH!, 'utf8'));
 * const result = envelopeFromEvent({ payload, env: process.env, route: 'answer' });
 * if (result.ok) console.log(result.envelope.thread_key);
 * ```
 */
export function envelopeFromEvent(input: EnvelopeFromEventInput, options: EnvelopeOptions = {}): EnvelopeFromEvent {
  const { env } = input;
  const issues: ValidationIssue[] = [];
  const repo = env.GITHUB_REPOSITORY ?? '';
  if (repo === '') issues.push({ path: 'GITHUB_REPOSITORY', message: 'GITHUB_REPOSITORY: required value is missing' });
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  if (eventName === '') {
    issues.push({ path: 'GITHUB_EVENT_NAME', message: 'GITHUB_EVENT_NAME: required value is missing' });
    return { ok: false, issues };
  }
  const extracted = extract(eventName, input.payload, env);
  if (!extracted.ok) return { ok: false, issues: [...issues, ...extracted.issues] };
  const { context } = extracted;
  const lane = input.lane === undefined || input.lane === '' ? DEFAULT_LANE : input.lane;
  const candidate = {
    schema_version: ENVELOPE_SCHEMA_VERSION,
    repo_slug: repo,
    route: input.route,
    source_kind: context.source_kind,
    target_kind: context.target_kind,
    target_number: context.target_number,
    target_url: context.target_url,
    request_text: context.request_text,
    requested_by: context.requested_by,
    approval_comment_url: null,
    workflow: input.workflow ?? workflowFileOf(env.GITHUB_WORKFLOW_REF),
    lane,
    thread_key: joinThreadKey({
      repo_slug: repo,
      target_kind: context.target_kind,
      target_number: context.target_number,
      route: input.route,
      lane,
    }),
  };
  const validated = validateEnvelope(candidate, options);
  if (!validated.ok) {
    // The derived thread key only repeats a problem already named by its field.
    const fields = new Set(validated.issues.map((issue) => issue.path));
    const own = validated.issues.filter(
      (issue) =>
        (issue.path !== 'thread_key' || ![...fields].some((path) => path !== 'thread_key')) &&
        !(repo === '' && issue.path === 'repo_slug'),
    );
    return { ok: false, issues: [...issues, ...own] };
  }
  if (issues.length > 0) return { ok: false, issues };
  return validated;
}
