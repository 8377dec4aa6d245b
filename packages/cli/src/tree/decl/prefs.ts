// Why: `repomem prefs`, declared once.
import { defineCommand } from '../types.js';
import { DIR, JSON_OUTPUT, REPO, STORE } from './common.js';

/** `repomem prefs`. */
export const PREFS = defineCommand({
  name: 'prefs',
  usage: [
    'set --user <login> (--text <preference> [--topic <topic>] | --from-task <description>)',
    'list --user <login>',
    '(both: [--store <spec> | --dir <path>] [--repo <owner/name>] [--json])',
  ],
  description: `A user's preferences, read last (lowest priority) when a task of theirs is hydrated. A newer
preference on a topic (pr-size, commit-style, tests, docs, review, or one derived from the
text) replaces the older. --from-task keeps only explicit statements of a task description
("I prefer...", "please always...").`,
  subcommands: [
    { name: 'set', summary: 'Record a preference (or those a task description states)' },
    { name: 'list', summary: "A user's preferences" },
  ],
  options: {
    store: STORE,
    dir: DIR,
    repo: REPO,
    user: { type: 'string', value: 'login', description: 'GitHub login' },
    text: { type: 'string', value: 'preference', description: 'The preference' },
    topic: {
      type: 'string',
      value: 'topic',
      choices: ['pr-size', 'commit-style', 'tests', 'docs', 'review'],
      description: 'Topic (default: derived from the text)',
    },
    'from-task': { type: 'string', value: 'text', description: 'Take the explicit preferences of a task description' },
    'task-id': { type: 'string', value: 'id', description: 'Task the preference comes from' },
    json: { ...JSON_OUTPUT, description: 'Print one JSON object' },
  },
  examples: [
    {
      command: 'prefs set --user octocat --text "Keep pull requests under 300 lines" --topic pr-size',
      description: 'Record a preference',
    },
    { command: 'prefs list --user octocat --json', description: "octocat's preferences" },
  ],
  load: async () => (await import('../../commands/prefs.js')).runPrefsCommand,
});
