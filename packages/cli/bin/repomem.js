#!/usr/bin/env node
// Why: a committed launcher so package managers can link `repomem` at install time, before
// `dist/` is built; it loads the built CLI. It first checks the Node version, so a user running
// it with an older Node (whose `node:sqlite` is missing or lacks FTS5) is told what to do instead
// of meeting an obscure failure in the middle of a command. Plain JavaScript that any Node parses.

/** The oldest Node repomem runs on (`node:sqlite` with FTS5); equals `engines.node` in package.json. */
const NODE_FLOOR = [22, 16];

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < NODE_FLOOR[0] || (major === NODE_FLOOR[0] && minor < NODE_FLOOR[1])) {
  process.stderr.write(
    [
      `repomem: Node ${NODE_FLOOR.join('.')} or later is required (its built-in node:sqlite with full-text search);`,
      `this is Node ${process.versions.node} (${process.execPath}).`,
      'In a clone of the repomem repository, either run the CLI through the provisioned toolchain:',
      '  ./dev pnpm exec repomem <command> ...',
      'or put the toolchain first on PATH for this shell:',
      '  export PATH="$PWD/.toolchain/node_modules/.bin:$PATH"   # from the clone root, after ./dev demo',
      `Elsewhere, install Node ${NODE_FLOOR.join('.')} or later (for example Node 24).`,
      '',
    ].join('\n'),
  );
  process.exit(1);
}

import('../dist/bin.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/bin.js')) {
    process.stderr.write('repomem: the CLI is not built yet; run `pnpm build` (or ./dev demo) first\n');
    process.exit(1);
  }
  throw error;
});
