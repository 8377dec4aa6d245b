// Why: `repomem envelope`, declared once.
import { defineCommand } from '../types.js';
import { JSON_OUTPUT } from './common.js';

/** `repomem envelope`. */
export const ENVELOPE = defineCommand({
  name: 'envelope',
  usage: ['--from-event [--route <route>] [--lane <lane>] [--workflow <file>] [--json]'],
  description: `Builds the run's RuntimeEnvelope from the GitHub Actions event, as Sepo does: reads the payload at
$GITHUB_EVENT_PATH, $GITHUB_EVENT_NAME, $GITHUB_REPOSITORY, $GITHUB_ACTOR, $GITHUB_SERVER_URL and
$GITHUB_WORKFLOW_REF. Events: issue_comment, issues, pull_request, pull_request_target,
pull_request_review, pull_request_review_comment, discussion, discussion_comment,
workflow_dispatch, schedule. Prints the envelope JSON (one line with --json, indented otherwise);
an invalid envelope or event names every problem on stderr (exit 2).`,
  options: {
    'from-event': { type: 'boolean', description: 'Build the envelope from the GitHub Actions event (required)' },
    route: { type: 'string', value: 'route', description: 'The route (default $ROUTE); required' },
    lane: { type: 'string', value: 'lane', description: 'Session lane (default $LANE, then default)' },
    workflow: { type: 'string', value: 'file', description: 'Workflow file name (default: from $GITHUB_WORKFLOW_REF)' },
    'custom-route': {
      type: 'string',
      value: 'r',
      multiple: true,
      description: 'Accept a route outside the documented list (repeatable)',
    },
    json: { ...JSON_OUTPUT, description: 'One-line JSON' },
  },
  examples: [
    { command: 'envelope --from-event --route implement --json', description: "The run's envelope as one JSON line" },
  ],
  load: async () => (await import('../../commands/envelope.js')).runEnvelopeCommand,
});
