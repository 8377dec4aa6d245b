// Why: one place decides how a failure becomes an exit code and a stderr message, so every
// command follows the same rule: 0 success, 2 caller-fixable data problem, 1 usage or
// unexpected error (Sepo's convention, with the 1 it leaves undocumented made explicit).
import { RepomemError } from '@repomem/core';

/** Exit codes of the `repomem` command. */
export const ExitCode = {
  /** Success, including "no change". */
  ok: 0,
  /** Usage error (bad or missing arguments) or an unexpected failure. */
  usage: 1,
  /** Caller-fixable problem with the data: no match, ambiguous match, missing section, bad memory dir... */
  failed: 2,
} as const;

/** One of the values of {@link ExitCode}. */
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** A usage or argument error: printed with the command's usage text, exit code 1. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

/**
 * A caller-fixable problem detected by the CLI itself (for example a memory directory that
 * does not exist): printed without usage, exit code 2. `code` mirrors repomem's error codes.
 */
export class CliDataError extends Error {
  /** Stable machine-readable code, e.g. `NOT_FOUND`. */
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'CliDataError';
    this.code = code;
  }
}

/** RepomemError codes that mean the caller passed a bad argument (exit 1, usage shown). */
const ARGUMENT_ERROR_CODES: ReadonlySet<string> = new Set(['INVALID_ARGUMENT', 'INVALID_PATH']);

/** RepomemError codes that mean a caller-fixable data or access problem (exit 2). */
const DATA_ERROR_CODES: ReadonlySet<string> = new Set([
  'NOT_FOUND',
  'NOT_A_DIRECTORY',
  'BINARY_FILE',
  'FILE_TOO_LARGE',
  'SECRET_DETECTED',
  'INVALID_DOCUMENT',
  'READ_ONLY',
  'MEMORY_DISABLED',
  'PERMISSION_DENIED',
]);

/** How a thrown value is reported: exit code, stderr text, whether usage follows, and a code for JSON. */
export interface ErrorReport {
  readonly exitCode: ExitCodeValue;
  /** The human message (one or more lines, no trailing newline). */
  readonly message: string;
  /** Print the command's usage after the message. */
  readonly showUsage: boolean;
  /** Machine-readable code: `USAGE`, a repomem error code, or `UNEXPECTED`. */
  readonly code: string;
}

/** Classify any thrown value into an {@link ErrorReport}. */
export function classifyError(error: unknown): ErrorReport {
  if (error instanceof CliUsageError) {
    return { exitCode: ExitCode.usage, message: error.message, showUsage: true, code: 'USAGE' };
  }
  if (error instanceof CliDataError) {
    return { exitCode: ExitCode.failed, message: error.message, showUsage: false, code: error.code };
  }
  if (error instanceof RepomemError) {
    const { code, message } = error;
    if (ARGUMENT_ERROR_CODES.has(code)) return { exitCode: ExitCode.usage, message, showUsage: true, code };
    if (DATA_ERROR_CODES.has(code)) return { exitCode: ExitCode.failed, message, showUsage: false, code };
    return { exitCode: ExitCode.usage, message: `repomem: ${code}: ${message}`, showUsage: false, code };
  }
  const detail = error instanceof Error ? error.message : String(error);
  return {
    exitCode: ExitCode.usage,
    message: `repomem: unexpected error: ${detail}`,
    showUsage: false,
    code: 'UNEXPECTED',
  };
}
