// Why: `repomem context`, declared once.
import { defineCommand } from '../types.js';
import { DIR, EMBEDDER, JSON_OUTPUT, REF, REPO, SOURCE, STORE } from './common.js';

/** `repomem context`. */
export const CONTEXT = defineCommand({
  name: 'context',
  usage: [
    '--task <description> [--task-id <id>] [--user <login>] [--budget <tokens>]',
    ' [--file <path>]... [--embedder <spec>] [--record] [--note-rules [--rule-expiry <n>]]',
    ' [--verified [--source <spec>]] [--ref <rev>] [--strict] [--json | --markdown]',
    'receipts --task <task id> [--json]',
    'diff <task id A> <task id B> [--json]',
  ],
  description: `Builds the memory context of a task from the chosen store (every source read in parallel, each
within its timeout): every active review rule first, then verified memories (with --verified,
checked against the code first), repository knowledge, similar past tasks (a pull request closed
unmerged included, its outcome shown) and the user's preferences share the rest of a token budget
(default 2000, estimated as characters / 4) by relevance to the task; a memory that matches
nothing of the task is left out ("below the relevance floor"). Prints the Markdown block for the
agent's prompt, or with --json the block, the structured context and the context receipt: every
candidate memory with its id, revision, score and tokens, included or dropped and why. A failing
source is skipped with a warning (outage, throttling, timeout) or an error (configuration, corrupt
record); --strict fails instead.

receipts prints the stored receipt of a task (--task is its id); diff compares two tasks' receipts.`,
  positionals: [{ name: 'mode', variadic: true, choices: ['receipts', 'diff'], description: '' }],
  options: {
    store: { ...STORE, description: 'Store (default sqlite:.repomem/repomem.db, or $REPOMEM_STORE)' },
    dir: { ...DIR, description: 'A memory directory as the store' },
    repo: { ...REPO, description: "Repository (default $GITHUB_REPOSITORY, then the origin remote's)" },
    task: { type: 'string', value: 'text', description: 'Task description (receipts: the task id)' },
    'task-id': {
      type: 'string',
      value: 'id',
      description: "Task id: skips the task's own episode; names the stored receipt",
    },
    user: { type: 'string', value: 'login', description: 'Submitting user (their preferences are read)' },
    file: {
      type: 'string',
      value: 'path',
      multiple: true,
      complete: 'file',
      description: 'A file the task is about (repeatable): memories scoped to its directory rank up',
    },
    embedder: {
      ...EMBEDDER,
      description:
        "Rank by meaning too: local, openai:<model>, bedrock:<model> (default $REPOMEM_EMBEDDER; none: words only); a first run embeds the memory's records",
    },
    budget: { type: 'integer', value: 'n', description: 'Token budget (default 2000)' },
    'timeout-ms': { type: 'integer', value: 'n', description: 'Timeout of each source (default 5000)' },
    record: { type: 'boolean', description: 'Store the receipt under --task-id' },
    'note-rules': {
      type: 'boolean',
      description:
        'Count the task against the review rules (a rule not given as relevant in 50 tasks expires); needs --task-id',
    },
    'rule-expiry': {
      type: 'integer',
      value: 'n',
      description: 'With --note-rules: tasks without relevance before a rule expires (default 50)',
    },
    verified: { type: 'boolean', description: 'Include verified memories (--source/--ref: where their code is read)' },
    source: SOURCE,
    ref: {
      ...REF,
      description:
        "Revision citations are read at (default HEAD), and the branch whose history scopes learnings, episodes and rules learned on other branches (default $GITHUB_HEAD_REF, then $GITHUB_REF, then the clone's current branch)",
    },
    'prompt-version': { type: 'string', value: 'v', description: 'Prompt version recorded in the receipt' },
    commit: { type: 'string', value: 'sha', description: 'Repository commit recorded in the receipt' },
    strict: { type: 'boolean', description: 'Fail when any source fails' },
    markdown: { type: 'boolean', description: 'Print the Markdown block (the default)' },
    json: { ...JSON_OUTPUT, description: 'Print one JSON object' },
  },
  examples: [
    {
      command: 'context --task "Fix the flaky login test" --user octocat',
      description: "The Markdown block for an agent's prompt",
    },
    {
      command: 'context --task "Bump zod" --task-id 42 --record --json',
      description: 'The context with its receipt, stored under task 42',
    },
    { command: 'context receipts --task 42', description: 'What task 42 was given' },
    { command: 'context diff 41 42 --json', description: "What changed between two tasks' contexts" },
  ],
  load: async () => (await import('../../commands/context.js')).runContextCommand,
});
