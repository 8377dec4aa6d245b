// Why: a driver is outside code, and what it declares and returns is outside data. Its
// declaration is checked once with zod when the store is built (a wrong contract version, a
// missing method or an impossible size limit is `INVALID_ARGUMENT` naming the field), and every
// entry it returns is checked cheaply before core trusts it, so a driver bug surfaces as a clear
// `INVALID_DOCUMENT` instead of corrupt memory.
import { z } from 'zod';
import { RepomemError } from '../errors.js';
import { KIT_DRIVER_VERSION, type KitDriver, type KitEntry } from './driver.js';

const method = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function', 'must be a function');
const candidates = z.object({ candidates: method });

const DriverSchema = z.object({
  kit: z.literal(KIT_DRIVER_VERSION, {
    error: `must be ${KIT_DRIVER_VERSION} (the driver contract this core implements)`,
  }),
  name: z.string().min(1).max(64),
  batch: z.enum(['atomic', 'isolated', 'per-key']),
  maxValueBytes: z.number().int().positive(),
  read: method,
  scan: method,
  write: method,
  close: method,
  fullText: candidates.optional(),
  vectors: candidates.optional(),
  history: z.object({ log: method, readAt: method }).optional(),
  timeToLive: z.object({ granularitySeconds: z.number().nonnegative() }).optional(),
  revision: z.object({ current: method }).optional(),
  twins: candidates.optional(),
  contentVersions: z.literal(true).optional(),
  readAll: z.object({ read: method }).optional(),
  assignsVersions: z.literal(true).optional(),
  preconditions: z.object({ read: method }).optional(),
});

/** Check a driver's declaration; throws `INVALID_ARGUMENT` naming every problem. */
export function checkDriver(driver: KitDriver): KitDriver {
  const parsed = DriverSchema.safeParse(driver);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.map(String).join('.') || 'driver'}: ${issue.message}`,
    );
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
