// Why: `repomem completion`, declared once.
import { defineCommand } from '../types.js';

/** `repomem completion`. */
export const COMPLETION = defineCommand({
  name: 'completion',
  usage: ['<bash|zsh|fish>'],
  description: `Prints a completion script for the shell, generated from the command tree: commands,
subcommands, options (with their descriptions in zsh and fish) and the values of options that
have a fixed set. See the CLI README for where to install it.`,
  positionals: [{ name: 'shell', choices: ['bash', 'zsh', 'fish'], description: 'bash, zsh or fish' }],
  options: {},
  examples: [
    { command: 'completion bash', description: 'The bash script (source it from ~/.bashrc)' },
    { command: 'completion fish', description: 'The fish script (~/.config/fish/completions/repomem.fish)' },
  ],
  load: async () => (await import('../../commands/completion.js')).runCompletionCommand,
});
