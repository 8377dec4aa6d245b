// Why: `repomem rules`, declared once.
import { defineCommand } from '../types.js';
import { DIR, JSON_OUTPUT, STORE } from './common.js';

/** `repomem rules`. */
export const RULES = defineCommand({
  name: 'rules',
  usage: ['<extract|parse|list|approve|reject|supersede> [options] [--json]'],
  description: `Review rules: coding rules learned from pull request reviews. Every rule a model proposes is
screened for prompt injection (instructions to the agent, role text, URLs, shell commands,
secrets, encoded text, tool or memory directives, invisible or look-alike characters), then
classified: a rule is active (given to agents) only when it is a code convention from a
maintainer that touches no sensitive subject (permissions, credentials, CI, security settings,
memory, reviews...); otherwise it is stored pending, never given to an agent until a maintainer
approves it. Reviewers without write access are refused unless allowed (then pending). Rules are
stored as task records of the store.`,
  subcommands: [
    {
      name: 'extract',
      usage: '[--event <file>] [--event-name <name>] (--model-command <cmd> | --model-output <file> | --print-prompt)',
      summary:
        "Read a pull_request_review or pull_request_review_comment payload (default $GITHUB_EVENT_PATH, event name default $GITHUB_EVENT_NAME), build the versioned extraction prompt, get the model's answer, screen it and store the accepted rules.",
    },
    {
      name: 'parse',
      usage: '--pr <n> --reviewer <login> --association <assoc> [--input <file>] [--prompt-version <v>] [--save]',
      summary:
        'Parse a model answer (stdin, or --input <file>) into accepted (active) rules, pending rules and refused lines, each with its reasons. --save stores the accepted and pending rules.',
    },
    {
      name: 'list',
      usage: '[--pending | --status active|pending|refused|superseded|expired|all] [--limit <n>]',
      summary:
        'Rules, strongest first (default: active ones); --pending lists the rules waiting for a maintainer, with their reasons.',
    },
    {
      name: 'approve',
      usage: '<rule-id> [--by <login>] [--reason <text>]',
      summary:
        'Activate a pending rule (superseding the active rules it contradicts). Who approved is recorded: --by, else $GITHUB_ACTOR, else git config user.name.',
    },
    {
      name: 'reject',
      usage: '<rule-id> [--by <login>] [--reason <text>]',
      summary: 'Refuse a pending rule for good (a later review teaching it again is refused).',
    },
    {
      name: 'supersede',
      usage: '--id <rule-id> --reason <text> [--rule <text> [--scope <scope>]] [--author <login>]',
      summary: 'Mark a rule superseded, optionally by a replacement rule (screened like extracted ones).',
    },
  ],
  positionals: [{ name: 'rule-id', description: '' }],
  options: {
    store: STORE,
    dir: DIR,
    repo: { type: 'string', value: 'o/n', description: "Repository (default: the event's, then $GITHUB_REPOSITORY)" },
    event: {
      type: 'string',
      value: 'file',
      complete: 'file',
      description: 'extract: the event payload (default $GITHUB_EVENT_PATH)',
    },
    'event-name': {
      type: 'string',
      value: 'name',
      description: 'extract: the event name (default $GITHUB_EVENT_NAME)',
    },
    'model-command': {
      type: 'string',
      value: 'cmd',
      description: 'extract: run <cmd> with sh, the prompt on stdin; its stdout is the answer',
    },
    'model-output': {
      type: 'string',
      value: 'file',
      complete: 'file',
      description: 'extract: read the answer from a file (- for stdin)',
    },
    'print-prompt': { type: 'boolean', description: 'extract: print the prompt and its version; store nothing' },
    pr: { type: 'integer', value: 'n', description: 'parse: the pull request' },
    reviewer: { type: 'string', value: 'login', description: 'parse: the reviewer' },
    association: {
      type: 'string',
      value: 'assoc',
      choices: [
        'OWNER',
        'MEMBER',
        'COLLABORATOR',
        'CONTRIBUTOR',
        'FIRST_TIME_CONTRIBUTOR',
        'FIRST_TIMER',
        'MANNEQUIN',
        'NONE',
      ],
      description: "parse: the reviewer's association with the repository",
    },
    input: { type: 'string', value: 'file', complete: 'file', description: 'parse: the model answer (default stdin)' },
    'prompt-version': { type: 'string', value: 'v', description: 'parse: the prompt version the answer comes from' },
    save: { type: 'boolean', description: 'parse: store the accepted and pending rules' },
    status: {
      type: 'string',
      value: 'status',
      choices: ['active', 'pending', 'refused', 'superseded', 'expired', 'all'],
      description: 'list: rules of this status (default active)',
    },
    pending: { type: 'boolean', description: 'list: the rules waiting for a maintainer' },
    limit: { type: 'integer', value: 'n', description: 'list: most rules printed' },
    id: { type: 'string', value: 'rule-id', description: 'supersede: the rule' },
    rule: { type: 'string', value: 'text', description: 'supersede: the replacement rule' },
    scope: { type: 'string', value: 'scope', description: 'supersede: scope of the replacement rule' },
    reason: { type: 'string', value: 'text', description: 'approve, reject, supersede: why' },
    author: { type: 'string', value: 'login', description: 'supersede: author of the replacement rule' },
    by: {
      type: 'string',
      value: 'login',
      description: 'approve, reject: who decided (default $GITHUB_ACTOR, then git config user.name)',
    },
    'allow-without-write-access': {
      type: 'boolean',
      description: 'Accept rules from CONTRIBUTOR, NONE... reviewers, at their lower weight',
    },
    json: { ...JSON_OUTPUT, description: 'One JSON object on stdout' },
  },
  sections: [
    {
      title: 'Association values',
      body: '  OWNER, MEMBER, COLLABORATOR (write access), CONTRIBUTOR, FIRST_TIME_CONTRIBUTOR, FIRST_TIMER,\n  MANNEQUIN, NONE.',
    },
    { title: 'Exit codes', body: '  0 success, 2 nothing found / refused input, 1 usage or unexpected error.' },
  ],
  examples: [
    { command: 'rules extract --model-command "claude -p"', description: "Extract rules from this run's review event" },
    { command: 'rules list --pending --json', description: 'Rules waiting for a maintainer' },
    { command: 'rules approve rule-1234 --by octocat', description: 'Activate a pending rule' },
  ],
  load: async () => (await import('../../commands/rules.js')).runRulesCommand,
});
