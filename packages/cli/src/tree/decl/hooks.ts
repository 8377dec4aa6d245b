// Why: `repomem hooks`, declared once.
import { defineCommand } from '../types.js';
import { JSON_OUTPUT } from './common.js';

/** `repomem hooks`. */
export const HOOKS = defineCommand({
  name: 'hooks',
  usage: ['<install|uninstall> [--hooks-dir <dir>] [--json]'],
  description: `Commit attribution: a prepare-commit-msg hook that adds Task-Id: and Prompt-Version: trailers
(with git interpret-trailers) to commits made while REPOMEM_TASK_ID is set.`,
  subcommands: [
    {
      name: 'install',
      summary:
        "Install the hook in the repository's hooks directory (core.hooksPath is honoured). A hook already there is kept: it is renamed prepare-commit-msg.repomem-chained and runs first, with the same arguments; its failure still stops the commit.",
    },
    { name: 'uninstall', summary: 'Remove the hook and put back the one it replaced.' },
  ],
  options: {
    'hooks-dir': {
      type: 'string',
      value: 'dir',
      complete: 'directory',
      description: 'Hooks directory (default: git rev-parse --git-path hooks in the working directory)',
    },
    json: { ...JSON_OUTPUT, description: 'One JSON object describing the outcome' },
  },
  sections: [
    {
      title: 'Read by the hook at commit time',
      body: `  REPOMEM_TASK_ID         Task id (letters, digits and . _ : @ / + = -, at most 200 characters);
                          unset or empty: the hook adds nothing
  REPOMEM_PROMPT_VERSION  Prompt version (for example sha256:...); adds Prompt-Version: when set
An amend, a rerun or a merge never duplicates a trailer (--if-exists addIfDifferent), and
nothing is added while a rebase replays commits.`,
    },
  ],
  examples: [{ command: 'hooks install', description: 'Install the trailer hook in this clone' }],
  load: async () => (await import('../../commands/hooks.js')).runHooksCommand,
});
