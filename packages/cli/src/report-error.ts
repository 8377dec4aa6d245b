// Why: every command reports a thrown error the same way (message, usage when it is an
// argument problem, or one JSON object under --json) and returns the exit code.
import { classifyError, type ExitCodeValue } from './errors.js';
import type { CliIo } from './io.js';

/**
 * Print `error` for a command and return its exit code (see {@link classifyError}). Errors go to
 * stderr in every mode (stdout stays empty, as Sepo's CLIs keep it): under `--json` as one JSON
 * object, so a caller piping stdout into `jq` never parses an error as a result.
 */
export function reportError(error: unknown, io: CliIo, usage: string, json: boolean): ExitCodeValue {
  const report = classifyError(error);
  if (json) {
    io.stderr.write(`${JSON.stringify({ ok: false, outcome: 'error', code: report.code, message: report.message })}\n`);
    return report.exitCode;
  }
  io.stderr.write(report.showUsage ? `${report.message}\n\n${usage}` : `${report.message}\n`);
  return report.exitCode;
}

/** True when `--json` appears among the options of `argv` (before any `--`), even if parsing fails later. */
export function wantsJson(argv: readonly string[]): boolean {
  for (const token of argv) {
    if (token === '--') return false;
    if (token === '--json') return true;
  }
  return false;
}
