// Why: every failure the emulator answers travels the way the service sends it (status code,
// `x-amzn-errortype` header, JSON body with `message` and the error shape's extra members); one
// class carries that so operation handlers can simply throw.
import type { FieldIssue } from './validate.js';
import { validationMessage } from './validate.js';

/** A service error the emulator answers with: HTTP status, error type and JSON body members. */
export class EmulatorServiceError extends Error {
  /** Error shape name sent in `x-amzn-errortype`, e.g. `ValidationException`. */
  readonly errorType: string;
  /** HTTP status code. */
  readonly status: number;
  /** Extra JSON body members beside `message` (e.g. `reason`, `fieldList`). */
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(errorType: string, status: number, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = 'EmulatorServiceError';
    this.errorType = errorType;
    this.status = status;
    this.extra = extra;
  }
}

/** `ValidationException` (400, reason `FieldValidationFailed`) listing the rejected fields. */
export function fieldValidationError(issues: readonly FieldIssue[]): EmulatorServiceError {
  return new EmulatorServiceError('ValidationException', 400, validationMessage(issues), {
    reason: 'FieldValidationFailed',
    fieldList: issues.map((issue) => ({ name: issue.name, message: issue.message })),
  });
}

/** `ValidationException` (400) with another reason of the model's enum and no field list. */
export function validationError(
  reason:
    | 'CannotParse'
    | 'FieldValidationFailed'
    | 'IdempotentParameterMismatchException'
    | 'EventInOtherSession'
    | 'ResourceConflict',
  message: string,
): EmulatorServiceError {
  return new EmulatorServiceError('ValidationException', 400, message, { reason });
}

/** `ResourceNotFoundException` (404). */
export function notFound(message: string): EmulatorServiceError {
  return new EmulatorServiceError('ResourceNotFoundException', 404, message);
}

/** `ThrottledException` (429), what memory operations throw when over their rate. */
export function throttled(message = 'Rate exceeded'): EmulatorServiceError {
  return new EmulatorServiceError('ThrottledException', 429, message);
}

/** `ServiceException` (500). */
export function serviceException(message = 'An internal error occurred. Try again.'): EmulatorServiceError {
  return new EmulatorServiceError('ServiceException', 500, message);
}
