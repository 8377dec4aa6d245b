// Why: `repomem update`: thin wiring from a parsed request to the memory facade and back to
// Sepo's messages; all decisions live in update-args.ts and format/update-output.ts.
import type { Memory, UpdateOutcome } from '@repomem/core';
import { ExitCode } from '../errors.js';
import { describeUpdateOutcome, updateOutcomeJson } from '../format/update-output.js';
import type { CliIo } from '../io.js';
import { openChosenMemory } from '../open-memory.js';
import { reportError, wantsJson } from '../report-error.js';
import { chooseStore, documentRepoFor } from '../store-selection.js';
import { UPDATE } from '../tree/decl/update.js';
import { helpText } from '../tree/help.js';
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

/** Run `repomem update <argv...>`; returns the exit code. */
export async function runUpdateCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const json = wantsJson(argv);
  try {
    const request = parseUpdateArguments(argv);
    if (request.help) {
      io.stdout.write(helpText(UPDATE));
      return ExitCode.ok;
    }
    const chosen = await chooseStore(request, io);
    const repo = documentRepoFor(chosen, request.repo, io);
    const { memory, displayPath: displayPathOf } = await openChosenMemory(chosen, {
      mode: request.readOnly ? 'read-only' : 'enabled',
      repo,
    });
    let outcome: UpdateOutcome;
    try {
      outcome = await runOperation(memory, request.operation);
    } finally {
      await memory.store.close();
    }
    // Sepo: the memory directory as given joined with the document path (`memory/MEMORY.md`).
    const displayPath = displayPathOf(outcome.path);
    const report = describeUpdateOutcome(outcome, displayPath);
    // Failures go to stderr in both modes (Sepo's streams); stdout only carries results.
    if (request.json) {
      const store = chosen.kind === 'dir' ? {} : { store: chosen.label };
      (report.stream === 'stdout' ? io.stdout : io.stderr).write(
        `${JSON.stringify({ ...updateOutcomeJson(outcome, displayPath), ...store })}\n`,
      );
    } else {
      (report.stream === 'stdout' ? io.stdout : io.stderr).write(`${report.text}\n`);
    }
    return report.exitCode;
  } catch (error) {
    return reportError(error, io, helpText(UPDATE), json);
  }
}
