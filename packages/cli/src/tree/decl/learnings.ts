// Why: `repomem learnings`, declared once.
import { defineCommand } from '../types.js';
import { DIR, JSON_OUTPUT, REPO, STORE } from './common.js';

/** `repomem learnings`. */
export const LEARNINGS = defineCommand({
  name: 'learnings',
  usage: [
    'add (--text <answer> | --file <path>) [--task-id <id>] [--self-feedback]',
    'list [--all] [--limit <n>]',
    '(both: [--store <spec> | --dir <path>] [--repo <owner/name>] [--json])',
  ],
  description: `Records the agent's answer to the post-task learnings prompt ("**[Topic]:** learning" paragraphs,
a topic may end with a scope: "**[Testing (src/legacy/)]:** ...") as repository knowledge. The
same learning again is a duplicate; a new one on the same topic and scope supersedes the older;
other scopes coexist. "No new repository learnings." records nothing. --self-feedback takes the
answer to the self-feedback prompt (free paragraphs allowed). list prints the stored
learnings, newest first: id, last write, subject (scope): fact.`,
  subcommands: [
    { name: 'add', summary: "Record the agent's learnings (or self-feedback)" },
    { name: 'list', summary: 'The stored learnings, newest first' },
  ],
  options: {
    store: STORE,
    dir: DIR,
    repo: REPO,
    text: { type: 'string', value: 'answer', description: 'The answer' },
    file: { type: 'string', value: 'path', complete: 'file', description: 'Read the answer from a file' },
    'task-id': { type: 'string', value: 'id', description: 'Task the learnings come from' },
    'self-feedback': { type: 'boolean', description: 'The answer is self-feedback (missing context)' },
    all: { type: 'boolean', description: 'list: superseded learnings too' },
    limit: { type: 'integer', value: 'n', description: 'list: most learnings printed (default 50)' },
    json: { ...JSON_OUTPUT, description: 'Print one JSON object' },
  },
  examples: [
    { command: 'learnings add --file learnings.md --task-id 42', description: "Record task 42's learnings" },
    { command: 'learnings list --limit 10', description: 'The ten latest learnings' },
  ],
  load: async () => (await import('../../commands/learnings.js')).runLearningsCommand,
});
