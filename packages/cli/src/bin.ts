// Why: the `repomem` executable. It stays tiny: it turns on Node's on-disk compile cache
// before loading the bundled CLI (a separate chunk), so repeated cold starts skip most of the
// parse/compile cost, then runs the CLI and sets `process.exitCode` (never `process.exit`), so
// buffered stdout/stderr always drain before the process ends.
import module from 'node:module';

try {
  // Node >= 22.1; honours NODE_COMPILE_CACHE and NODE_DISABLE_COMPILE_CACHE.
  module.enableCompileCache?.();
} catch {
  // A read-only or missing temp directory only costs speed.
}

// Node 22 flags `node:sqlite` as experimental and says so on stderr at every start; to a user of
// the CLI that is noise, not news (Node 24 no longer prints it). Only that one warning is dropped,
// here rather than in the launcher so that every way of starting the binary gets it.
const emitWarning = process.emitWarning;
process.emitWarning = function emitWarningExceptSqlite(warning: string | Error, ...rest: unknown[]): void {
  const first = rest[0] as string | { type?: string } | undefined;
  const type = typeof first === 'string' ? first : first?.type;
  if (type === 'ExperimentalWarning' && /SQLite/.test(typeof warning === 'string' ? warning : warning.message)) return;
  (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
} as typeof process.emitWarning;

// A closed pipe (`repomem search x | head -1`) is not an error worth a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

const { runCli } = await import('./run-cli.js');
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
