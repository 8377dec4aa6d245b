// Why: a driver is outside code, and what it declares and returns is outside data. Its
// declaration is checked once when the store is built (a wrong contract version, a missing method
// or an impossible size limit is `INVALID_ARGUMENT` naming the field), and every entry it returns
// is checked cheaply before core trusts it, so a driver bug surfaces as a clear
// `INVALID_DOCUMENT` instead of corrupt memory. The declaration rules are written by hand rather
// than as a zod schema: `createStore` runs on the hot path of every CLI command (`repomem update
// add` on a directory), and loading zod there cost about 90 KB of code and a fifth of the
// command's CPU (measured on the directory store port).
import { RepomemError } from '../errors.js';
import { KIT_DRIVER_VERSION, type KitDriver, type KitEntry } from './driver.js';

/** Adds `[path, message]` to `out` for each way `value` breaks the rule. */
type Rule = (value: unknown, path: string, out: [string, string][]) => void;

const is =
  (test: (value: unknown) => boolean, message: string): Rule =>
  (value, path, out) => {
    if (!test(value)) out.push([path, message]);
  };
const optional =
  (rule: Rule): Rule =>
  (value, path, out) => {
    if (value !== undefined) rule(value, path, out);
  };
const shape =
  (fields: Record<string, Rule>): Rule =>
  (value, path, out) => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
      out.push([path, 'must be an object']);
      return;
    }
    for (const [name, rule] of Object.entries(fields)) {
      rule((value as Record<string, unknown>)[name], path === '' ? name : `${path}.${name}`, out);
    }
  };
const method = is((value) => typeof value === 'function', 'must be a function');
const isTrue = is((value) => value === true, 'must be true');
const candidates = optional(shape({ candidates: method }));

const driverRule = shape({
  kit: is(
    (value) => value === KIT_DRIVER_VERSION,
    `must be ${KIT_DRIVER_VERSION} (the driver contract this core implements)`,
  ),
  name: is(
    (value) => typeof value === 'string' && value.length >= 1 && value.length <= 64,
    'must be a string of 1 to 64 characters',
  ),
  batch: is(
    (value) => value === 'atomic' || value === 'isolated' || value === 'per-key',
    'must be "atomic", "isolated" or "per-key"',
  ),
  maxValueBytes: is(
    (value) => typeof value === 'number' && Number.isSafeInteger(value) && value > 0,
    'must be a positive integer',
  ),
  read: method,
  scan: method,
  write: method,
  close: method,
  fullText: candidates,
  vectors: candidates,
  history: optional(shape({ log: method, readAt: method })),
  timeToLive: optional(
    shape({
      granularitySeconds: is(
        (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0,
        'must be a number of at least 0',
      ),
    }),
  ),
  revision: optional(shape({ current: method })),
  twins: candidates,
  contentVersions: optional(isTrue),
  readAll: optional(shape({ read: method })),
  assignsVersions: optional(isTrue),
  preconditions: optional(shape({ read: method })),
  concurrentWrites: optional(
    shape({
      limit: is(
        (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= 64,
        'must be an integer from 1 to 64',
      ),
    }),
  ),
});

/** Check a driver's declaration; throws `INVALID_ARGUMENT` naming every problem. */
export function checkDriver(driver: KitDriver): KitDriver {
  const found: [string, string][] = [];
  driverRule(driver, '', found);
  if (found.length > 0) {
    const problems = found.map(([path, message]) => `${path || 'driver'}: ${message}`);
    throw new RepomemError('INVALID_ARGUMENT', `not a store kit driver: ${problems.join('; ')}`, {
      details: { problems },
    });
  }
  return driver;
}

/** Throw `INVALID_DOCUMENT` unless `entry` is a well-formed entry for `key` (with a value when `withValue`). */
export function checkEntry(driver: KitDriver, entry: KitEntry, key: string | undefined, withValue: boolean): KitEntry {
  const problem =
    entry === null || typeof entry !== 'object'
      ? 'not an object'
      : typeof entry.key !== 'string' || (key !== undefined && entry.key !== key)
        ? `key ${JSON.stringify(entry.key)} where ${JSON.stringify(key)} was asked`
        : typeof entry.version !== 'string' || entry.version === ''
          ? 'no version'
          : withValue && !(entry.value instanceof Uint8Array)
            ? 'value is not bytes'
            : entry.value !== undefined && entry.value.byteLength !== entry.size
              ? `size ${entry.size} but ${entry.value.byteLength} bytes`
              : undefined;
  if (problem !== undefined) {
    throw new RepomemError('INVALID_DOCUMENT', `the ${driver.name} driver returned a malformed entry: ${problem}`, {
      details: { driver: driver.name, key: key ?? null },
    });
  }
  return entry;
}
