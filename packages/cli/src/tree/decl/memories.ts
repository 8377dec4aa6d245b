// Why: `repomem memories`, declared once: the subcommands and the options each accepts (the
// parser refuses the others).
import { defineCommand } from '../types.js';
import { JSON_OUTPUT, REF, REPO, SOURCE, STORE } from './common.js';

/** `repomem memories`. */
export const MEMORIES = defineCommand({
  name: 'memories',
  usage: ['<subcommand> [--store <spec>] [--repo <owner/name>] [--json] [options]'],
  description: 'Verified memories: facts with code citations that are re-read before use.',
  subcommands: [
    {
      name: 'store',
      usage: '--subject S --fact F --cite <path>:<start>-<end> [--cite ...] [--reason R] [--scope SC] [--by ID]',
      options: ['subject', 'fact', 'cite', 'reason', 'scope', 'by', 'source', 'ref', 'commit'],
      summary: 'Store a memory after reading its citations (recording the commit and branch it was learned on)',
    },
    {
      name: 'recent',
      usage: '[--limit 50] [--ref BRANCH]',
      options: ['limit', 'ref'],
      summary: 'Active, unexpired memories, most recently refreshed first',
    },
    {
      name: 'search',
      usage: '<query...> [--limit 50] [--ref BRANCH]',
      options: ['limit', 'ref'],
      positionals: [{ name: 'query', variadic: true, description: 'Words every memory found contains' }],
      summary: 'Active memories matching every word (literally)',
    },
    { name: 'get', usage: '--id ID', options: ['id'], summary: 'One memory in any status' },
    {
      name: 'verify',
      usage: '--id ID | --all [--limit 50]',
      options: ['id', 'all', 'limit', 'source', 'ref'],
      summary: 'Check citations: valid ones are refreshed, stale ones invalidated',
    },
    { name: 'invalidate', usage: '--id ID --reason R', options: ['id', 'reason'], summary: 'Mark a memory invalid' },
    {
      name: 'supersede',
      usage: '--id ID --fact F --cite ... [--subject S] [--reason R] [--scope SC] [--by ID]',
      options: ['id', 'subject', 'fact', 'cite', 'reason', 'scope', 'by', 'source', 'ref', 'commit'],
      summary: 'Replace a memory by a new one',
    },
    { name: 'stats', options: [], summary: 'Counts by status and event, verification success rate' },
    {
      name: 'impact',
      usage: '--base REF [--head HEAD]',
      options: ['base', 'head', 'source'],
      summary:
        'Memories whose cited lines the diff base..head touches: still valid, re-anchored (renamed, moved) or would be invalidated',
    },
    {
      name: 'promote',
      usage: '--ref BRANCH --merge-commit SHA [--into main] [--pr N] [--source S]',
      options: ['ref', 'merge-commit', 'into', 'pr', 'source'],
      summary:
        "A branch's pull request merged: move what was learned on it (memories, learnings, episodes, rules) into the branch it merged into, re-verified at the merge commit",
    },
    {
      name: 'quarantine',
      usage: '--ref BRANCH [--pr N]',
      options: ['ref', 'pr'],
      summary: "A branch's pull request closed unmerged: keep what was learned on it, never served, listed for review",
    },
    {
      name: 'quarantined',
      usage: '[--ref BRANCH]',
      options: ['ref'],
      summary: 'List quarantined memories, learnings, episodes and rules',
    },
    {
      name: 'delete-quarantined',
      usage: '--id ID | --ref BRANCH',
      options: ['id', 'ref'],
      summary: 'Delete quarantined records after review (a served record is never deleted here)',
    },
  ],
  positionals: [],
  common: ['store', 'repo', 'json'],
  options: {
    store: {
      ...STORE,
      description:
        'sqlite:<path> (records stored natively), dir:<path> or git:<repo-dir>[#<branch>] (records as JSON under .repomem/verified/); default as in repomem --help',
    },
    repo: { ...REPO, description: "Repository of the memories (default $GITHUB_REPOSITORY, then the origin remote's)" },
    subject: { type: 'string', value: 'S', description: 'What the memory is about' },
    fact: { type: 'string', value: 'F', description: 'The fact (at most 3,200 characters)' },
    cite: {
      type: 'string',
      value: 'path:start-end',
      multiple: true,
      description: 'A citation, <path>:<start>-<end> or <path>:<line> (repeatable; at least one)',
    },
    reason: { type: 'string', value: 'R', description: 'Why (stored with the event)' },
    scope: { type: 'string', value: 'SC', description: 'Where the memory applies (a directory, for example)' },
    by: { type: 'string', value: 'ID', description: 'Who or what records it' },
    id: { type: 'string', value: 'ID', description: 'The memory' },
    all: { type: 'boolean', description: 'verify: every active memory' },
    limit: { type: 'integer', value: 'n', default: 50, description: 'Most memories listed or verified (default 50)' },
    base: { type: 'string', value: 'REF', description: 'impact: the diff base' },
    head: { type: 'string', value: 'HEAD', description: 'impact: the diff head (default HEAD)' },
    source: {
      ...SOURCE,
      description:
        'Where cited code is read (store, supersede, verify, impact): dir:<worktree>, git:<repo-dir>[#<ref>] or github ($GITHUB_TOKEN, $GITHUB_API_URL); default: the git repository around the working directory, else the directory',
    },
    ref: {
      ...REF,
      value: 'ref',
      description:
        "store, supersede, verify: revision to read citations at (default HEAD); recent, search: the branch listed (default $GITHUB_HEAD_REF, $GITHUB_REF, else the clone's); promote, quarantine, quarantined, delete-quarantined: the pull request's branch",
    },
    commit: {
      type: 'string',
      value: 'SHA',
      description:
        "store, supersede: the commit the memory was learned on (default the clone's HEAD, else $GITHUB_SHA); the branch is the clone's, else $GITHUB_HEAD_REF/$GITHUB_REF",
    },
    'merge-commit': { type: 'string', value: 'SHA', description: 'promote: the merge commit (7 to 40 hex digits)' },
    into: {
      type: 'string',
      value: 'BRANCH',
      description: "promote: the branch the pull request merged into (default the repository's default branch)",
    },
    pr: { type: 'integer', value: 'N', description: 'promote, quarantine: the pull request number (recorded)' },
    json: { ...JSON_OUTPUT, description: 'Print one JSON object: { ok, outcome, ... }' },
  },
  sections: [
    { title: 'Citations', body: '  <path>:<start>-<end> or <path>:<line> (1-based, inclusive, repository-relative).' },
    {
      title: 'Exit codes',
      body: `  0 success (including verify results that invalidated memories), 2 not found, not active,
  rejected citations or citations that could not be read now, 1 usage or unexpected error.`,
    },
  ],
  examples: [
    {
      command: 'memories store --subject build --fact "CI runs pnpm test" --cite .github/workflows/ci.yml:12-14',
      description: 'Store a memory with one citation',
    },
    { command: 'memories verify --all --json', description: "Re-read every active memory's citations" },
    { command: 'memories impact --base main', description: "Memories the branch's diff touches" },
    {
      command: 'memories promote --ref feature/x --merge-commit 9f1c2d3 --pr 7',
      description: 'After the pull request of feature/x merged',
    },
    { command: 'memories quarantined', description: 'What closed pull requests left for review' },
  ],
  load: async () => (await import('../../commands/memories.js')).runMemoriesCommand,
});
