// Why: maps every bullet-operation outcome to Sepo's exact message, stream and exit code (the
// table in reference/sepo-memory.md) and to the `--json` object, in one pure function that
// unit tests pin down without touching the disk.
import type { UpdateOutcome } from '@repomem/core';
import { ExitCode, type ExitCodeValue } from '../errors.js';

/** What to print for one outcome. */
export interface UpdateReport {
  readonly exitCode: ExitCodeValue;
  /** `stdout` for successes (including "no change"), `stderr` for failures. */
  readonly stream: 'stdout' | 'stderr';
  /** The message, possibly several lines, without a trailing newline. */
  readonly text: string;
}

/**
 * Sepo's message for `outcome`. `displayPath` is the file as the user named it: the memory
 * directory as given (`--dir`, `$MEMORY_DIR` or the working directory) joined with the
 * document path, e.g. `memory/MEMORY.md`.
 */
export function describeUpdateOutcome(outcome: UpdateOutcome, displayPath: string): UpdateReport {
  const ok = (text: string): UpdateReport => ({ exitCode: ExitCode.ok, stream: 'stdout', text });
  const fail = (text: string): UpdateReport => ({ exitCode: ExitCode.failed, stream: 'stderr', text });
  switch (outcome.kind) {
    case 'added':
      return ok(`added bullet to ${displayPath}`);
    case 'duplicate':
      return ok(`no change (duplicate): ${displayPath}`);
    case 'replaced':
      return ok(`replaced bullet in ${displayPath}`);
    case 'collapsed':
      return ok(`collapsed duplicate bullet in ${displayPath}`);
    case 'removed':
      return ok(`removed bullet from ${displayPath}`);
    case 'no_match':
      return fail(`no bullet matched: ${outcome.match} in ${displayPath}`);
    case 'ambiguous':
      return fail([`multiple bullets matched: ${outcome.match} in ${displayPath}`, ...outcome.candidates].join('\n'));
    case 'missing_section': {
      const available = outcome.sections.length > 0 ? outcome.sections.join(', ') : '(none)';
      return fail(`section not found: ${outcome.section} in ${displayPath}\navailable sections: ${available}`);
    }
    case 'duplicate_section':
      return fail(
        `duplicate section: ${outcome.section} in ${displayPath} (headers on lines ${outcome.lines.join(', ')}); ` +
          'merge them by hand, then retry',
      );
  }
}

/**
 * The `--json` object for `outcome`: `{ ok, outcome, path, message, documentPath, ...fields }`
 * where `path` is the display path of the message, `documentPath` the path inside the memory
 * tree, and the remaining fields are the outcome's own (`bullet`, `from`, `match`,
 * `candidates`, `section`, `sections`, `lines`).
 */
export function updateOutcomeJson(outcome: UpdateOutcome, displayPath: string): Record<string, unknown> {
  const report = describeUpdateOutcome(outcome, displayPath);
  const { kind, path, ...fields } = outcome;
  return {
    ok: report.exitCode === ExitCode.ok,
    outcome: kind,
    path: displayPath,
    message: report.text,
    documentPath: path,
    ...fields,
  };
}
