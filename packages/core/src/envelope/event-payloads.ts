// Why: a GitHub Actions event payload is outside data. Only the few fields the envelope is built
// from are read, and each is checked with zod first, so a payload missing one is reported by
// name instead of producing an envelope with `undefined` in it. Other fields are left alone.
import { z } from 'zod';
import { expected, objectExpected } from './validation-issues.js';

/** A payload object: unknown fields kept, a missing or non-object value named as such. */
function payloadObject<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.looseObject(shape, { error: objectExpected });
}

const Login = payloadObject({ login: z.string(expected('a GitHub login')) });
const Url = z.string(expected('a URL'));
const Body = z
  .string(expected('a string'))
  .nullish()
  .transform((value) => value ?? '');
const NumberSchema = z.int(expected('an integer'));

/** A numbered issue, pull request or discussion as the payloads hold it. */
const Thread = payloadObject({ number: NumberSchema, html_url: Url, body: Body, user: Login.optional() });

/** The repository object every payload carries. */
const Repository = payloadObject({ html_url: Url }).optional();

/** `issue_comment` (on an issue or a pull request: `issue.pull_request` is set for the latter). */
export const IssueCommentPayloadSchema = payloadObject({
  issue: Thread.extend({ pull_request: z.unknown().optional() }),
  comment: payloadObject({ body: Body, html_url: Url, user: Login }),
  repository: Repository,
});

/** `issues`. */
export const IssuesPayloadSchema = payloadObject({ issue: Thread, sender: Login, repository: Repository });

/** `pull_request` and `pull_request_target`. */
export const PullRequestPayloadSchema = payloadObject({
  pull_request: Thread,
  sender: Login,
  repository: Repository,
});

/** `pull_request_review`. */
export const PullRequestReviewPayloadSchema = payloadObject({
  pull_request: Thread,
  review: payloadObject({ body: Body, html_url: Url, user: Login }),
  repository: Repository,
});

/** `pull_request_review_comment`. */
export const PullRequestReviewCommentPayloadSchema = payloadObject({
  pull_request: Thread,
  comment: payloadObject({ body: Body, html_url: Url, user: Login }),
  repository: Repository,
});

/** `discussion`. */
export const DiscussionPayloadSchema = payloadObject({ discussion: Thread, sender: Login, repository: Repository });

/** `discussion_comment`. */
export const DiscussionCommentPayloadSchema = payloadObject({
  discussion: Thread,
  comment: payloadObject({ body: Body, html_url: Url, user: Login }),
  repository: Repository,
});

/** `workflow_dispatch`: `inputs` are strings (booleans and numbers arrive as strings too, or as JSON values). */
export const WorkflowDispatchPayloadSchema = payloadObject({
  inputs: z.record(z.string(), z.unknown()).nullish(),
  sender: Login.optional(),
  repository: Repository,
});

/** `schedule`: only the cron expression (no sender). */
export const SchedulePayloadSchema = payloadObject({ schedule: z.string().optional(), repository: Repository });
