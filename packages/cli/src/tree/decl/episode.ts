// Why: `repomem episode`, declared once.
import { defineCommand } from '../types.js';
import { DIR, JSON_OUTPUT, REPO, STORE } from './common.js';

const text = (description: string) => ({ type: 'string', value: 'text', description }) as const;

/** `repomem episode`. */
export const EPISODE = defineCommand({
  name: 'episode',
  usage: [
    'write --task-id <id> --status <completed|failed|cancelled|timed_out> [fields] [--minimal]',
    'write --outcome <merged|closed> (--pr-number <n> | --pr-url <url> | --task-id <id>) [--at <time>]',
    'get --task-id <id>',
    'list [--limit <n>]',
    '(all: [--store <spec> | --dir <path>] [--repo <owner/name>] [--json])',
  ],
  description: `Writes a task's episode at task end: idempotent by task id (the same episode again changes
nothing; more fields update it), retried up to 3 times on a transient failure, and never a
failed task: a write that still fails exits 2 with the reason. --minimal is the orchestrator's
fallback: written only when the task has no episode yet.

--outcome records a pull request's outcome without a webhook, on the episodes of the tasks that
opened it (found by --pr-url, else --pr-number, or the one --task-id names): merged is positive,
closed unmerged negative. Outcomes are ordered by --at, the ISO 8601 time of the pull request
state you report (mergedAt / closedAt; default now), as webhook deliveries are: an older state
never replaces a newer one, and at the same instant merged wins. No such episode: exit 2.`,
  subcommands: [
    { name: 'write', summary: "Write a task's episode, or record a pull request's outcome (--outcome)" },
    { name: 'get', summary: 'One episode, by --task-id' },
    { name: 'list', summary: 'Past episodes, newest first' },
  ],
  options: {
    store: STORE,
    dir: DIR,
    repo: REPO,
    'task-id': { type: 'string', value: 'id', description: 'The task' },
    status: {
      type: 'string',
      value: 'status',
      choices: ['completed', 'failed', 'cancelled', 'timed_out'],
      description: 'completed, failed, cancelled or timed_out',
    },
    description: text('What the task was'),
    approach: text('How it was done'),
    difficulties: text('What was hard'),
    'self-feedback': text("The agent's self-feedback"),
    'pr-url': { type: 'string', value: 'url', description: 'The pull request the task opened' },
    'pr-number': { type: 'integer', value: 'n', description: 'Its number' },
    branch: { type: 'string', value: 'name', description: 'The branch the task worked on' },
    file: {
      type: 'string',
      value: 'path',
      multiple: true,
      complete: 'file',
      description: 'A file the task changed (repeatable)',
    },
    cost: { type: 'string', value: 'usd', description: 'Cost in US dollars' },
    duration: { type: 'string', value: 'seconds', description: 'Duration in seconds' },
    'prompt-version': { type: 'string', value: 'v', description: 'Prompt version of the run' },
    user: { type: 'string', value: 'login', description: 'Submitting user' },
    outcome: {
      type: 'string',
      value: 'merged|closed',
      choices: ['merged', 'closed'],
      description: "The pull request's outcome",
    },
    at: { type: 'string', value: 'time', description: 'ISO 8601 time of the outcome (default now)' },
    minimal: { type: 'boolean', description: 'Write only when the task has no episode yet' },
    limit: { type: 'integer', value: 'n', description: 'Most episodes listed (default 20)' },
    strict: { type: 'boolean', description: 'Throw the failure instead of reporting it' },
    json: { ...JSON_OUTPUT, description: 'Print one JSON object' },
  },
  examples: [
    {
      command: 'episode write --task-id 42 --status completed --pr-number 7 --description "Fix login"',
      description: "Record task 42's episode",
    },
    { command: 'episode write --outcome merged --pr-number 7', description: 'Pull request 7 was merged' },
    { command: 'episode list --limit 5 --json', description: 'The five latest episodes' },
  ],
  load: async () => (await import('../../commands/episode.js')).runEpisodeCommand,
});
