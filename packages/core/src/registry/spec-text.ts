// Why: the part of spec handling that needs no store package: splitting `<scheme>:<rest>`, and
// one wording for a bad spec, so every scheme's errors name the spec the same way.
import { RepomemError } from '../errors.js';

/** A spec split at its first `:`. */
export interface SplitSpec {
  /** Lower-case scheme (`''` when there is no colon). */
  readonly scheme: string;
  /** Everything after the first colon. */
  readonly rest: string;
}

/** Split a spec; throws `INVALID_ARGUMENT` for a non-string or blank spec. */
export function splitSpec(spec: string, what: string): SplitSpec {
  if (typeof spec !== 'string' || spec.trim() === '') {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `invalid ${what} spec ${JSON.stringify(String(spec))}: the spec is empty`,
      {
        details: { spec: String(spec) },
      },
    );
  }
  if (spec.includes('\0')) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `invalid ${what} spec ${JSON.stringify(spec)}: it contains a NUL character`,
      {
        details: { spec },
      },
    );
  }
  const colon = spec.indexOf(':');
  if (colon === -1) return { scheme: spec.trim().toLowerCase(), rest: '' };
  return { scheme: spec.slice(0, colon).toLowerCase(), rest: spec.slice(colon + 1) };
}

/** The `INVALID_ARGUMENT` error for a spec, with the spec shown (redacted by the caller if needed). */
export function invalidSpec(shown: string, what: string, problem: string): RepomemError {
  return new RepomemError('INVALID_ARGUMENT', `invalid ${what} spec ${JSON.stringify(shown)}: ${problem}`, {
    details: { spec: shown },
  });
}

/**
 * Replace the password of a URL-like spec (`postgres://user:secret@host/db`) by `***`, so a spec
 * can be shown in any message. Text without credentials is returned as is.
 */
export function redactSpec(spec: string): string {
  return spec.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/@:]*):[^/@]*@/i, '$1:***@');
}
