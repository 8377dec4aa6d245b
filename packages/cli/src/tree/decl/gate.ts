// Why: `repomem gate`, declared once.
import { defineCommand } from '../types.js';
import { JSON_OUTPUT } from './common.js';

/** `repomem gate`. */
export const GATE = defineCommand({
  name: 'gate',
  usage: ['<schedule|scan|pr-closed|commit> [options] [--json]'],
  description: `Decides whether a memory workflow step runs, from the repository variables, the event and the
state refs, and hands the decision to later steps as step outputs (appended to $GITHUB_OUTPUT):
run (true | false) and reason, plus the outputs listed below. Prints one line
"gate <name>: run|skip (<reason>): <why>" (the decision as JSON with --json). Always exits 0 once
the inputs parse: the decision is in the outputs.`,
  subcommands: [
    {
      name: 'schedule',
      usage: '--workflow <file.yml>',
      options: ['workflow'],
      summary:
        'AGENT_ENABLED=false pauses everything; AGENT_SCHEDULE_POLICY decides scheduled runs ($GITHUB_EVENT_NAME schedule); any other event runs. Outputs: mode, check_activity.',
    },
    {
      name: 'scan',
      usage: '[--workflow agent-memory-scan.yml] [--store <spec>]',
      options: ['workflow', 'store'],
      summary:
        "The schedule gate, then (skip_no_updates) the scan gate: a scheduled scan runs only when the sync state's last_activity_at is newer than the scan state's last_scan_at. State comes from --store, else the state refs of the repository at $GITHUB_WORKSPACE (or here); a state written for another repository than $GITHUB_REPOSITORY, $REPO_SLUG or the clone's origin remote (said on stderr) is ignored. Dispatch bypasses the gate.",
    },
    {
      name: 'pr-closed',
      options: [],
      summary:
        'Fork safety for curation on pull_request_target closed ($GITHUB_EVENT_PATH): same-repository pull requests, merged fork pull requests and manual dispatch run; closed unmerged fork pull requests, unreadable events and AGENT_ENABLED=false skip.',
    },
    {
      name: 'commit',
      usage: '--agent-exit-code <n> [--memory-dir <dir>] [--route <route>] [--override <mode>]',
      options: ['agent-exit-code', 'memory-dir', 'route', 'override'],
      summary:
        'The three commit gates of an agent run: the agent exited 0, AGENT_MEMORY_POLICY (or the override, $MEMORY_MODE_OVERRIDE) makes memory writable for the route ($ROUTE), and the memory directory ($MEMORY_DIR) is mounted. Outputs: commit, memory_mode.',
    },
  ],
  common: ['json'],
  options: {
    workflow: { type: 'string', value: 'file.yml', complete: 'file', description: 'The workflow file the gate is for' },
    store: {
      type: 'string',
      value: 'spec',
      description: 'Store holding the sync and scan state (default: the state refs of the repository)',
    },
    'agent-exit-code': { type: 'string', value: 'n', description: "The agent's exit code" },
    'memory-dir': {
      type: 'string',
      value: 'dir',
      complete: 'directory',
      description: 'Memory directory (default $MEMORY_DIR)',
    },
    route: { type: 'string', value: 'route', description: 'The route (default $ROUTE)' },
    override: {
      type: 'string',
      value: 'mode',
      choices: ['enabled', 'read-only', 'disabled'],
      description: 'Memory mode override (default $MEMORY_MODE_OVERRIDE)',
    },
    json: { ...JSON_OUTPUT, description: 'The decision as one JSON line' },
  },
  examples: [
    { command: 'gate schedule --workflow agent-memory-sync.yml', description: 'Does the scheduled sync run?' },
    {
      command: 'gate commit --agent-exit-code 0 --memory-dir memory --json',
      description: "Commit the agent's memory edits?",
    },
  ],
  load: async () => (await import('../../commands/gate.js')).runGateCommand,
});
