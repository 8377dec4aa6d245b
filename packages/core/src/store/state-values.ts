// Why: every store must refuse the same state keys and values before writing anything, so a key
// that works on SQLite also works as a git ref name and an AgentCore record id, and a value is
// plain JSON small enough for one record. Checked here once for all stores.
import { RepomemError } from '../errors.js';
import { contentVersion } from './content-version.js';
import type { JsonValue } from './state-contract.js';

/** Longest state key, in characters. */
export const MAX_STATE_KEY_LENGTH = 200;

/** Largest serialised state value, in characters (fits one AgentCore memory record). */
export const MAX_STATE_VALUE_CHARACTERS = 16_000;

const SEGMENT = /^[A-Za-z0-9_%@-][A-Za-z0-9._%@-]*$/;

/**
 * Check a state key and return it. Keys are `/`-separated segments of letters, digits and
 * `. _ - % @`; a segment may not start with `.`, end with `.lock` or contain `..` (so every key
 * is also a valid git ref suffix). Throws `INVALID_ARGUMENT` naming the problem.
 */
export function normalizeStateKey(key: string): string {
  const problem = stateKeyProblem(key);
  if (problem !== undefined) {
    throw new RepomemError('INVALID_ARGUMENT', `invalid state key ${JSON.stringify(key)}: ${problem}`, {
      details: { key },
    });
  }
  return key;
}

/** Why `key` is not a valid state key, or `undefined` when it is. */
export function stateKeyProblem(key: unknown): string | undefined {
  if (typeof key !== 'string' || key.length === 0) return 'a key is a non-empty string';
  if (key.length > MAX_STATE_KEY_LENGTH) return `longer than ${MAX_STATE_KEY_LENGTH} characters`;
  for (const segment of key.split('/')) {
    if (segment === '') return 'empty segment (leading, trailing or doubled "/")';
    if (!SEGMENT.test(segment)) {
      return `segment ${JSON.stringify(segment)} must be letters, digits, ".", "_", "-", "%" or "@", not starting with "."`;
    }
    if (segment.includes('..')) return `segment ${JSON.stringify(segment)} contains ".."`;
    if (segment.endsWith('.lock')) return `segment ${JSON.stringify(segment)} ends with ".lock"`;
  }
  return undefined;
}

/** Check a state-key prefix (`''` or a key prefix, optionally ending with `/`). */
export function normalizeStatePrefix(prefix: string | undefined): string {
  if (prefix === undefined || prefix === '') return '';
  const trimmed = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  normalizeStateKey(trimmed);
  return prefix;
}

function isPlainJson(value: unknown, depth: number): boolean {
  if (depth > 64) return false;
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isPlainJson(item, depth + 1));
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return false;
    return Object.values(value as Record<string, unknown>).every((item) => isPlainJson(item, depth + 1));
  }
  return false;
}

/**
 * Serialise a state value (stable: what every store persists). Throws `INVALID_ARGUMENT` for a
 * value that is not plain JSON (functions, `undefined`, non-finite numbers, class instances,
 * nesting over 64) or longer than {@link MAX_STATE_VALUE_CHARACTERS} once serialised.
 */
export function serializeStateValue(key: string, value: JsonValue): string {
  if (!isPlainJson(value, 0)) {
    throw new RepomemError('INVALID_ARGUMENT', `state value of ${key} is not plain JSON`, { details: { key } });
  }
  const text = JSON.stringify(value);
  if (text.length > MAX_STATE_VALUE_CHARACTERS) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `state value of ${key} is ${text.length} characters once serialised, over the limit of ${MAX_STATE_VALUE_CHARACTERS}`,
      { details: { key, length: text.length } },
    );
  }
  return text;
}

/**
 * Parse a persisted state value. Throws `INVALID_DOCUMENT` naming the key when it is not JSON
 * (a corrupted or foreign value), so it is never mistaken for an absent one.
 */
export function parseStateValue(key: string, text: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch (error) {
    throw new RepomemError('INVALID_DOCUMENT', `state value of ${key} is not valid JSON`, {
      cause: error,
      details: { key },
    });
  }
}

/** Version of a serialised state value (SHA-256 of its UTF-8 text), for stores without their own. */
export function stateValueVersion(serialized: string): string {
  return contentVersion(new TextEncoder().encode(serialized));
}
