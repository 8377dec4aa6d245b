// Why: the programmatic entry of @repomem/cli: run the `repomem` command in-process (embedding,
// tests) with the same output and exit codes as the binary. Opening a store from a spec is
// core's job (`openStore` in @repomem/core), not the CLI's.
export { ExitCode, type ExitCodeValue } from './errors.js';
export type { CliIo, CliWritable } from './io.js';
export { runCli } from './run-cli.js';
export { CLI_VERSION } from './version.js';
