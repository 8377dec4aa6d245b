// Why: `repomem update`: thin wiring from a parsed request to the memory facade and back to
// Sepo's messages; all decisions live in update-args.ts and format/update-output.ts.
import { join } from 'node:path';
import type { Memory, UpdateOutcome } from '@repomem/core';
import { ExitCode } from '../errors.js';
import { describeUpdateOutcome, updateOutcomeJson } from '../format/update-output.js';
import type { CliIo } from '../io.js';
import { chooseMemoryDirectory, type MemoryDirectory, openMemoryAt } from '../memory-dir.js';
import { reportError, wantsJson } from '../report-error.js';
import { UPDATE_USAGE } from '../usage.js';
import { parseUpdateArguments, type UpdateOperation } from './update-args.js';

function runOperation(memory: Memory, operation: UpdateOperation): Promise<UpdateOutcome> {
  switch (operation.kind) {
    case 'add':
      return memory.add({ file: operation.file, section: operation.section, text: operation.text });
    case 'replace':
      return memory.replace({
        file: operation.file,
        section: operation.section,
        match: operation.match,
        with: operation.with,
      });
    case 'remove':
      return memory.remove({ file: operation.file, section: operation.section, match: operation.match });
    case 'daily-append':
      return memory.dailyAppend({ text: operation.text });
  }
}

/**
 * The file as messages name it: the memory directory as given joined with the document path
 * (`path.join`, like Sepo), e.g. `memory/MEMORY.md` for `--dir memory`.
 */
function displayPathOf(directory: MemoryDirectory, documentPath: string): string {
  return join(directory.display, ...documentPath.split('/'));
}

/** Run `repomem update <argv...>`; returns the exit code. */
export async function runUpdateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const request = parseUpdateArguments(argv);
    if (request.help) {
      io.stdout.write(UPDATE_USAGE);
      return ExitCode.ok;
    }
    const directory = chooseMemoryDirectory(request.dir, io);
    const memory = await openMemoryAt(directory, { mode: request.readOnly ? 'read-only' : 'enabled' });
    let outcome: UpdateOutcome;
    try {
      outcome = await runOperation(memory, request.operation);
    } finally {
      await memory.store.close();
    }
    const displayPath = displayPathOf(directory, outcome.path);
    const report = describeUpdateOutcome(outcome, displayPath);
    if (request.json) {
      io.stdout.write(`${JSON.stringify(updateOutcomeJson(outcome, displayPath))}\n`);
    } else {
      (report.stream === 'stdout' ? io.stdout : io.stderr).write(`${report.text}\n`);
    }
    return report.exitCode;
  } catch (error) {
    return reportError(error, io, UPDATE_USAGE, json);
  }
}
