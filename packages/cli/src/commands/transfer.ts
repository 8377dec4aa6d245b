// Why: `repomem export` and `repomem import` move a repository's memory between two stores (a
// directory to SQLite, git to PostgreSQL...) with core's `copyMemory`: the chosen store (--store,
// --dir, $REPOMEM_STORE, the default) is the source of an export and the target of an import.
// Terminals get a progress line on stderr; the summary (or `--json`) goes to stdout. Items the
// target holds differently are left alone unless --overwrite, and make the exit code 2.
import { type CopyProgress, type CopyReport, copyMemory } from '@repomem/core';
import { CliUsageError, ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { cliRegistry } from '../store-registry.js';
import { chooseRepo, chooseStore } from '../store-selection.js';
import { commandRunner } from '../tree/command-runner.js';
import { EXPORT, IMPORT } from '../tree/decl/transfer.js';
import type { CommandRunner } from '../tree/types.js';

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

/** The options export and import share (typed by their declarations). */
interface TransferOptions {
  readonly store: string | undefined;
  readonly dir: string | undefined;
  readonly repo: string | undefined;
  readonly dryRun: boolean;
  readonly overwrite: boolean;
  readonly json: boolean;
}

async function transfer(
  command: 'export' | 'import',
  options: TransferOptions,
  otherSpec: string | undefined,
  io: CliIo,
): Promise<number> {
  if (otherSpec === undefined) throw new CliUsageError(`missing --${command === 'export' ? 'to' : 'from'} <spec>`);
  const chosen = await chooseStore({ store: options.store, dir: options.dir }, io);
  const otherResolved = await cliRegistry.resolveStoreSpec(otherSpec, { cwd: io.cwd, env: io.env });
  const repo = chooseRepo(options.repo, io);
  const terminal = (io.stderr as { isTTY?: boolean }).isTTY === true && !options.json;
  const report = await copyMemory({
    from: command === 'export' ? chosen.resolved : otherResolved,
    to: command === 'export' ? otherResolved : chosen.resolved,
    repo,
    dryRun: options.dryRun,
    overwrite: options.overwrite,
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
  io.stdout.write(options.json ? `${JSON.stringify(report)}\n` : summary(command, report));
  return report.conflicts.length > 0 ? ExitCode.failed : ExitCode.ok;
}

const runExport: CommandRunner = commandRunner(EXPORT, ({ options }, io) =>
  transfer('export', options, options.to, io),
);
const runImport: CommandRunner = commandRunner(IMPORT, ({ options }, io) =>
  transfer('import', options, options.from, io),
);

/** Run `repomem export --to <spec>` or `repomem import --from <spec>` on the chosen store. */
export function runTransferCommand(command: 'export' | 'import', argv: readonly string[], io: CliIo): Promise<number> {
  return (command === 'export' ? runExport : runImport)(argv, io);
}
