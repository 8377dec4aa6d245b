// Why: `repomem webhook`, declared once.
import { defineCommand } from '../types.js';
import { DIR, JSON_OUTPUT, REPO, STORE } from './common.js';

/** `repomem webhook`. */
export const WEBHOOK = defineCommand({
  name: 'webhook',
  usage: ['(--delivery <file> | --headers <file> [--body <file>]) [options] [--json]'],
  description: `Handle one GitHub webhook delivery: verify X-Hub-Signature-256 over the raw body, then route
pull_request_review and pull_request_review_comment events to review-rule extraction, and
pull_request closed events to the outcome of the task's episode (merged: positive; closed
without merge: negative) and the branch's memories (merged: promoted into the base branch; closed
without merge: quarantined). Promoted memories are re-verified at the merge commit when the
repository can be read: through the GitHub API with $GITHUB_TOKEN (else $GH_TOKEN) at
$GITHUB_API_URL, else from a clone of it as the working directory; otherwise the summary says
reverification=deferred and the next recall verifies them. Other events are acknowledged and ignored.`,
  options: {
    delivery: {
      type: 'string',
      value: 'file',
      complete: 'file',
      description: 'JSON {"headers": {...}, "body": "<raw body>"} (- for stdin)',
    },
    headers: {
      type: 'string',
      value: 'file',
      complete: 'file',
      description: "JSON object of the delivery's HTTP headers",
    },
    body: {
      type: 'string',
      value: 'file',
      complete: 'file',
      description: 'The raw body, byte for byte (default: stdin)',
    },
    'secret-env': {
      type: 'string',
      value: 'NAME',
      description: 'Environment variable holding the webhook secret (default REPOMEM_WEBHOOK_SECRET)',
    },
    'model-command': {
      type: 'string',
      value: 'cmd',
      description:
        'Rule extraction model: run <cmd> with sh, prompt on stdin, answer on stdout (without it review events are acknowledged and skipped)',
    },
    'allow-without-write-access': {
      type: 'boolean',
      description: 'Accept rules from reviewers without write access, at their lower weight',
    },
    'read-reviews': {
      type: 'boolean',
      description:
        'Read each submitted review back through the REST API with its inline comments ($GITHUB_TOKEN, $GITHUB_API_URL); comment events of a review are skipped',
    },
    store: STORE,
    dir: DIR,
    repo: REPO,
    json: { ...JSON_OUTPUT, description: 'The result as one JSON object (also printed on failure)' },
  },
  sections: [
    {
      title: 'Exit codes',
      body: '  0 handled or ignored, 2 refused (bad or missing signature, malformed body), 1 usage or a failure\n  while handling (the model command or the store; GitHub may redeliver).',
    },
  ],
  examples: [{ command: 'webhook --delivery delivery.json --json', description: 'Handle one saved delivery' }],
  load: async () => (await import('../../commands/webhook.js')).runWebhookCommand,
});
