// Why: the arguments of bullet operations are validated in one place, before any document is
// read, so bad input fails with a clear INVALID_ARGUMENT naming the problem and nothing is written.
import { RepomemError } from '../errors.js';
import type { MemoryFile } from '../memory/outcomes.js';
import { assertNoControlCharacters } from './bullet-text-rules.js';

/** The files bullet operations may edit (daily logs are reached through `dailyAppend`). */
export const MEMORY_FILES: readonly MemoryFile[] = ['MEMORY.md', 'PROJECT.md'];

/** Section every daily log entry goes to. */
export const DAILY_ACTIVITY_SECTION = 'Activity';

/** Throw `INVALID_ARGUMENT` unless `file` is `MEMORY.md` or `PROJECT.md`. */
export function assertMemoryFile(file: unknown): asserts file is MemoryFile {
  if (file !== 'MEMORY.md' && file !== 'PROJECT.md') {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `file must be one of ${MEMORY_FILES.join(', ')} (got ${JSON.stringify(file)})`,
      { details: { file, allowed: MEMORY_FILES } },
    );
  }
}

/** Throw `INVALID_ARGUMENT` unless `section` is a non-empty, single-line section name without control characters. */
export function assertSectionName(section: unknown): asserts section is string {
  if (typeof section !== 'string' || section.trim() === '') {
    throw new RepomemError('INVALID_ARGUMENT', 'section must be a non-empty name', { details: { section } });
  }
  if (/[\r\n]/.test(section)) {
    throw new RepomemError('INVALID_ARGUMENT', `section must be a single line (got ${JSON.stringify(section)})`, {
      details: { section },
    });
  }
  assertNoControlCharacters(section, 'section');
}

/** Throw `INVALID_ARGUMENT` unless `date` is `YYYY-MM-DD` naming a real calendar day. */
export function assertDailyDate(date: unknown): asserts date is string {
  const match = typeof date === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  if (match === null) {
    throw new RepomemError('INVALID_ARGUMENT', `date must be YYYY-MM-DD (got ${JSON.stringify(date)})`, {
      details: { date },
    });
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const parsed = new Date(0);
  parsed.setUTCFullYear(year, month - 1, day);
  if (parsed.getUTCFullYear() !== year || parsed.getUTCMonth() !== month - 1 || parsed.getUTCDate() !== day) {
    throw new RepomemError('INVALID_ARGUMENT', `date is not a real calendar day: ${date}`, { details: { date } });
  }
}

/** `YYYY-MM-DD` of `now` in UTC (the daily log a write lands in). */
export function utcDate(now: Date): string {
  const year = String(now.getUTCFullYear()).padStart(4, '0');
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  const day = String(now.getUTCDate()).padStart(2, '0');
  return `${year}-${month}-${day}`;
}

/** Path of the daily log for `date` (`daily/<YYYY-MM-DD>.md`). */
export function dailyLogPath(date: string): string {
  return `daily/${date}.md`;
}
