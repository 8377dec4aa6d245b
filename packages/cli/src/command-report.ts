// Why: the newer commands (memories, git branch commands) decide their whole output as one value
// (exit code, stream, text, `--json` object) in pure formatters; this module defines that value
// and prints it, so every command writes its result the same way.
import { ExitCode, type ExitCodeValue } from './errors.js';
import type { CliIo } from './io.js';

/** What a command prints for one outcome. */
export interface CommandReport {
  readonly exitCode: ExitCodeValue;
  /** `stdout` for results, `stderr` for outcomes the caller must act on. */
  readonly stream: 'stdout' | 'stderr';
  /** Text output, possibly several lines, without a trailing newline. */
  readonly text: string;
  /** The `--json` object: `{ ok, outcome, ...fields }`. */
  readonly json: Record<string, unknown>;
  /** Warnings printed on stderr in text mode (they are part of `json` already). */
  readonly warnings?: readonly string[];
}

/** A successful outcome (exit 0, stdout). */
export function okReport(
  outcome: string,
  text: string,
  fields: Record<string, unknown>,
  warnings?: readonly string[],
): CommandReport {
  return {
    exitCode: ExitCode.ok,
    stream: 'stdout',
    text,
    json: { ok: true, outcome, ...fields },
    ...(warnings === undefined ? {} : { warnings }),
  };
}

/** An outcome the caller must act on (exit 2, stderr). */
export function failedReport(outcome: string, text: string, fields: Record<string, unknown>): CommandReport {
  return { exitCode: ExitCode.failed, stream: 'stderr', text, json: { ok: false, outcome, ...fields } };
}

/**
 * Print `report` (its JSON object with `--json`, else warnings then text) on the report's stream
 * (stdout for results, stderr for failures, in both modes) and return its exit code.
 */
export function writeReport(report: CommandReport, io: CliIo, json: boolean): number {
  if (json) {
    (report.stream === 'stdout' ? io.stdout : io.stderr).write(`${JSON.stringify(report.json)}\n`);
  } else {
    for (const warning of report.warnings ?? []) io.stderr.write(`warning: ${warning}\n`);
    (report.stream === 'stdout' ? io.stdout : io.stderr).write(`${report.text}\n`);
  }
  return report.exitCode;
}
