// Why: the programmatic entry of @repomem/cli: run the `repomem` command in-process (embedding,
// tests) with the same output and exit codes as the binary, and open a store from a spec
// (`sqlite:`, `dir:`, `git:`) with the same default as the CLI.
export { ExitCode, type ExitCodeValue } from './errors.js';
export type { CliIo, CliWritable } from './io.js';
export { checkRepoSlug, DEFAULT_STORE_REPO, type OpenStoreOptions, openStoreFromSpec } from './open-store.js';
export { runCli } from './run-cli.js';
export {
  DEFAULT_STORE_SPEC,
  formatStoreSpec,
  parseStoreSpec,
  resolveStoreSpec,
  type StoreKind,
  type StoreSpec,
} from './store-spec.js';
export { CLI_VERSION } from './version.js';
