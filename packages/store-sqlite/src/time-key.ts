// Why: memories are ordered by and expire on ISO 8601 timestamps that may carry any UTC offset
// and any number of fraction digits. Comparing those strings directly would misorder
// `10:00+02:00` and `09:00Z`, so each timestamp is also stored as a canonical UTC key whose
// string order is its time order, and the indexes sort and filter on the keys.
import { RepomemError } from '@repomem/core';

const ISO_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/i;

/** Fraction digits every key carries (nanoseconds); longer fractions keep their extra digits. */
const FRACTION_DIGITS = 9;

/**
 * The sort key of an ISO 8601 timestamp (`2026-05-01T12:00:00.5+02:00` ->
 * `2026-05-01T10:00:00.500000000`): UTC, with at least nine fraction digits and no zone suffix,
 * so string comparison of keys is time comparison. Throws `INVALID_ARGUMENT` for text that is
 * not such a timestamp.
 */
export function timeKey(timestamp: string): string {
  const match = ISO_TIMESTAMP.exec(timestamp);
  if (match === null) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `expected an ISO 8601 timestamp with a zone, got ${JSON.stringify(timestamp)}`,
    );
  }
  const [, year, month, day, hour, minute, second, fraction = '', zone = 'Z'] = match;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    offsetMinutes = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  }
  const utc = new Date(0);
  utc.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  utc.setUTCHours(Number(hour), Number(minute) - offsetMinutes, Number(second), 0);
  let digits = fraction.padEnd(FRACTION_DIGITS, '0');
  while (digits.length > FRACTION_DIGITS && digits.endsWith('0')) digits = digits.slice(0, -1);
  return `${utc.toISOString().slice(0, 19)}.${digits}`;
}
