// Why: the CLI talks to the outside world only through this small interface, so it can run
// in-process (tests, embedding) exactly as it runs from the `repomem` binary.

/** Anything with a `write(string)` method: `process.stdout`, a test buffer... */
export interface CliWritable {
  write(chunk: string): unknown;
}

/** The process surface the CLI uses. Every field is optional in {@link runCli}'s `io` argument. */
export interface CliIo {
  /** Where results go. */
  readonly stdout: CliWritable;
  /** Where diagnostics, failures and usage go. */
  readonly stderr: CliWritable;
  /** Environment (`MEMORY_DIR`, `MEMORY_QUERY`, `REPOMEM_STORE`, `GITHUB_REPOSITORY`, `GITHUB_TOKEN`, `GITHUB_API_URL`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Working directory: relative paths resolve against it, and the default store
   * (`sqlite:.repomem/repomem.db`) lives in it when no store is named.
   */
  readonly cwd: string;
  /** Standard input for commands that read it (`rules parse`, `webhook`); default: the process's. */
  readonly stdin?: AsyncIterable<string | Uint8Array> | undefined;
}
