// Why: misuse (bad arguments, bad paths, policy refusals) is thrown as one error class with a
// stable machine-readable `code`, so callers and the CLI can branch on it without parsing
// messages. Outcomes a caller is expected to handle (no match, ambiguous...) are NOT errors:
// they are discriminated-union results (see memory/outcomes.ts).

/** Stable error codes thrown by repomem. */
export type RepomemErrorCode =
  | 'INVALID_PATH'
  | 'INVALID_ARGUMENT'
  | 'INVALID_ENVELOPE'
  | 'INVALID_POLICY'
  | 'INVALID_DOCUMENT'
  | 'FILE_TOO_LARGE'
  | 'BINARY_FILE'
  | 'SECRET_DETECTED'
  | 'NOT_A_DIRECTORY'
  | 'NOT_FOUND'
  | 'READ_ONLY'
  | 'MEMORY_DISABLED'
  | 'CONFLICT'
  | 'LOCK_TIMEOUT'
  | 'UNRESOLVED_PLACEHOLDER'
  | 'UNSUPPORTED'
  | 'STORE_CLOSED'
  | 'BACKEND_UNAVAILABLE'
  | 'PERMISSION_DENIED'
  | 'PACKAGE_MISSING'
  | 'EMBEDDER_MISMATCH';

/**
 * Marks repomem errors across copies of this module: an application may load two copies of core
 * (a bundled CLI and a store package installed beside it, ESM and CommonJS builds), and an error
 * from one copy must still be recognised by the other's `instanceof RepomemError`.
 */
const REPOMEM_ERROR_BRAND = Symbol.for('@repomem/core/RepomemError');

/** The one exception type repomem throws for misuse; `code` is stable, `message` is for humans. */
export class RepomemError extends Error {
  /**
   * `instanceof RepomemError` holds for repomem errors from any copy of this module (see
   * `REPOMEM_ERROR_BRAND`); subclasses keep the ordinary prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class instanceof was asked about (a subclass or this one)
    if (this !== RepomemError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return (
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[REPOMEM_ERROR_BRAND] === true
    );
  }

  /** Stable machine-readable code. */
  readonly code: RepomemErrorCode;
  /** Optional structured details (for example the offending path). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: RepomemErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RepomemError';
    Object.defineProperty(this, REPOMEM_ERROR_BRAND, { value: true });
    this.code = code;
    this.details = options?.details;
  }
}

/** True when `error` is a {@link RepomemError}, optionally with the given code. */
export function isRepomemError(error: unknown, code?: RepomemErrorCode): error is RepomemError {
  return error instanceof RepomemError && (code === undefined || error.code === code);
}
