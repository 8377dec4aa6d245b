// Why: verified memories live in the same store the other commands use: natively where the
// store's scheme has record tables (the SQLite file's records and telemetry tables, PostgreSQL,
// AgentCore), or as JSON documents under `.repomem/verified/` in any other store (a directory,
// the git branch). The registry picks the backend; this adds the CLI's missing-store message.
import { RepomemError, type VerifiedMemoryBackend } from '@repomem/core';
import { CliDataError } from './errors.js';
import { CLI_MAX_CONNECTIONS, missingStoreMessage } from './open-chosen-store.js';
import { cliRegistry } from './store-registry.js';
import type { ChosenStore } from './store-selection.js';

/** Open the verified-memory backend of `chosen`; `close()` also closes the underlying store. */
export async function openRecordBackend(chosen: ChosenStore, repo: string): Promise<VerifiedMemoryBackend> {
  try {
    return await cliRegistry.openVerifiedBackend(chosen.resolved, {
      cwd: chosen.context.cwd,
      env: chosen.context.env,
      repo,
      readOnly: false,
      maxConnections: CLI_MAX_CONNECTIONS,
    });
  } catch (error) {
    if (error instanceof RepomemError && (error.code === 'NOT_FOUND' || error.code === 'NOT_A_DIRECTORY')) {
      throw new CliDataError(error.code, missingStoreMessage(chosen, error.code, error));
    }
    throw error;
  }
}
