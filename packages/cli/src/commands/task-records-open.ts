// Why: `repomem context`, `episode`, `learnings` and `prefs` keep task memory in the store the
// other commands use: the store's native task records when its scheme has them, otherwise JSON
// documents under `.repomem/tasks/` (the registry decides). One opener, with the CLI's
// missing-store message and the warning for records that could not be read, shared by the four
// command modules.
import { RepomemError, type TaskRecordBackend } from '@repomem/core';
import { CliDataError } from '../errors.js';
import type { CliIo } from '../io.js';
import { CLI_MAX_CONNECTIONS, missingStoreMessage } from '../open-chosen-store.js';
import { cliRegistry } from '../store-registry.js';
import { chooseStore } from '../store-selection.js';

/** Run `use` with the task records of the store chosen by `--store`/`--dir` (or the default), then close them. */
export async function withTaskRecords<T>(
  selection: { readonly store?: string | undefined; readonly dir?: string | undefined },
  io: CliIo,
  repo: string,
  use: (records: TaskRecordBackend) => Promise<T>,
): Promise<T> {
  const chosen = await chooseStore(selection, io);
  let records: TaskRecordBackend;
  try {
    records = await cliRegistry.openTaskRecordBackend(chosen.resolved, {
      cwd: io.cwd,
      env: io.env,
      repo,
      readOnly: false,
      create: true,
      maxConnections: CLI_MAX_CONNECTIONS,
    });
  } catch (error) {
    if (error instanceof RepomemError && (error.code === 'NOT_FOUND' || error.code === 'NOT_A_DIRECTORY')) {
      throw new CliDataError(error.code, missingStoreMessage(chosen, error.code, error));
    }
    throw error;
  }
  try {
    return await use(records);
  } finally {
    reportSkippedRecords(records, io);
    await records.close();
  }
}

/**
 * Print, once each, the records the backend left out because they could not be read (a
 * truncated file, another repository's record copied in): the command served the others.
 */
export function reportSkippedRecords(records: TaskRecordBackend, io: CliIo): void {
  for (const skipped of records.drainSkippedRecords?.() ?? []) {
    io.stderr.write(
      `warning: skipped an unreadable ${skipped.kind} record (${skipped.location}): ${skipped.problem}\n`,
    );
  }
}
