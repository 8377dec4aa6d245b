// Why: `repomem export` and `repomem import` move a repository's memory between two stores (a
// directory to SQLite, git to PostgreSQL...) with core's `copyMemory`: the chosen store (--store,
// --dir, $REPOMEM_STORE, the default) is the source of an export and the target of an import.
// Terminals get a progress line on stderr; the summary (or `--json`) goes to stdout. Items the
// target holds differently are left alone unless --overwrite, and make the exit code 2.
import { type CopyProgress, type CopyReport, copyMemory } from '@repomem/core';
import { booleanOption, parseArguments, stringOption } from '../args.js';
import { CliUsageError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { reportError, wantsJson } from '../report-error.js';
import { cliRegistry } from '../store-registry.js';
import { chooseRepo, chooseStore } from '../store-selection.js';
import { EXPORT, IMPORT } from '../tree/decl/transfer.js';
import { helpText, optionSpecsOf } from '../tree/help.js';

const PHASES: Readonly<Record<CopyProgress['phase'], string>> = {
  history: 'history (revisions)',
  documents: 'documents',
  verified: 'verified memories',
  tasks: 'task records',
};

function counts(name: string, part: { copied: number; unchanged: number; conflict: number; overwritten: number }) {
  return `${name}: ${part.copied} copied, ${part.overwritten} overwritten, ${part.unchanged} unchanged, ${part.conflict} conflicts\n`;
}

function summary(command: 'export' | 'import', report: CopyReport): string {
  const lines = [
    `repomem ${command}: ${report.from} -> ${report.to} (repository ${report.repo})${report.dryRun ? ', dry run: nothing written' : ''}\n`,
    report.history.kind === 'replayed'
      ? `history: ${report.history.revisions} revisions replayed\n`
      : `history: not replayed (${report.history.reason})\n`,
    counts('documents', report.documents).replace('\n', ` (${report.documents.bytes} bytes)\n`),
    counts('verified memories', report.verified),
    counts('task records', report.tasks),
  ];
  if (report.conflicts.length > 0) {
    lines.push('Left alone (the target holds another version; --overwrite replaces them):\n');
    for (const conflict of report.conflicts) lines.push(`  ${conflict.part} ${conflict.name}\n`);
  }
  return lines.join('');
}

/** Run `repomem export --to <spec>` or `repomem import --from <spec>` on the chosen store. */
export async function runTransferCommand(
  command: 'export' | 'import',
  argv: readonly string[],
  io: CliIo,
): Promise<number> {
  const decl = command === 'export' ? EXPORT : IMPORT;
  const usage = helpText(decl);
  const json = wantsJson(argv);
  try {
    const other = command === 'export' ? 'to' : 'from';
    const parsed = parseArguments(argv, optionSpecsOf(decl));
    if (booleanOption(parsed, 'help')) {
      io.stdout.write(usage);
      return ExitCode.ok;
    }
    if (parsed.positionals.length > 0) throw new CliUsageError(`unexpected argument: ${parsed.positionals[0]}`);
    const otherSpec = stringOption(parsed, other);
    if (otherSpec === undefined || otherSpec === '') throw new CliUsageError(`missing --${other} <spec>`);
    const chosen = await chooseStore({ store: stringOption(parsed, 'store'), dir: stringOption(parsed, 'dir') }, io);
    const otherResolved = await cliRegistry.resolveStoreSpec(otherSpec, { cwd: io.cwd, env: io.env });
    const repo = chooseRepo(stringOption(parsed, 'repo'), io);
    const terminal = (io.stderr as { isTTY?: boolean }).isTTY === true && !json;
    const report = await copyMemory({
      from: command === 'export' ? chosen.resolved : otherResolved,
      to: command === 'export' ? otherResolved : chosen.resolved,
      repo,
      dryRun: booleanOption(parsed, 'dry-run'),
      overwrite: booleanOption(parsed, 'overwrite'),
      registry: cliRegistry,
      cwd: io.cwd,
      env: io.env,
      ...(terminal
        ? {
            onProgress: (progress: CopyProgress) =>
              io.stderr.write(`\r${PHASES[progress.phase]}: ${progress.done}/${progress.total}\u001b[K`),
          }
        : {}),
    });
    if (terminal) io.stderr.write('\r\u001b[K');
    io.stdout.write(json ? `${JSON.stringify(report)}\n` : summary(command, report));
    return report.conflicts.length > 0 ? ExitCode.failed : ExitCode.ok;
  } catch (error) {
    return reportError(error, io, usage, json);
  }
}
