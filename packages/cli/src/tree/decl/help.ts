// Why: `repomem help`, declared once (run by the CLI's entry itself: it needs only the tree).
import { defineCommand } from '../types.js';

/** `repomem help`. */
export const HELP = defineCommand({
  name: 'help',
  usage: ['[command]'],
  description: 'Prints the help of a command (the same as repomem <command> --help), or of repomem.',
  positionals: [{ name: 'command', description: 'A command of repomem' }],
  options: {},
  examples: [{ command: 'help search', description: 'The help of repomem search' }],
  load: async () => {
    throw new Error('repomem help is answered by the CLI entry');
  },
});
