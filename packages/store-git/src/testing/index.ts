// Why: the published test-helper entry point (@repomem/store-git/testing): a real git smart-HTTP
// server for remote tests of this package, the CLI and anyone building on them.
export {
  createBareRepository,
  type GitHttpServer,
  type GitHttpServerOptions,
  gitHttpBackendPath,
  startGitHttpServer,
} from './git-http-server.js';
