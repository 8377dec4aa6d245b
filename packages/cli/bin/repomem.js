#!/usr/bin/env node
// Why: a committed launcher so package managers can link `repomem` at install time, before
// `dist/` is built; it loads the built CLI.
import('../dist/bin.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/bin.js')) {
    process.stderr.write('repomem: the CLI is not built yet; run `pnpm build` (or ./dev demo) first\n');
    process.exit(1);
  }
  throw error;
});
