// Why: every native verified-memory backend (SQLite, PostgreSQL, AgentCore) validates what a
// caller writes the same way before it reaches a table or a record, with the same messages; one
// module does it, so a refused write reads the same on every store.
import { RepomemError } from '../errors.js';
import { type TelemetryEvent, TelemetryEventSchema, type VerifiedMemory, VerifiedMemorySchema } from './record.js';

/** A zod issue as far as the message needs it. */
export interface RecordIssue {
  /** Where in the value. */
  readonly path: ReadonlyArray<PropertyKey>;
  /** What is wrong. */
  readonly message: string;
}

/** Issues as one line: `citations[0].line_end: line_end must be >= line_start; ...`. */
export function describeRecordIssues(issues: readonly RecordIssue[]): string {
  return issues
    .map((issue) => {
      let path = '';
      for (const part of issue.path) {
        path += typeof part === 'number' ? `[${part}]` : path === '' ? String(part) : `.${String(part)}`;
      }
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}

/** Validate write `index` of an `apply`; `INVALID_ARGUMENT` naming the memory and the problem otherwise. */
export function checkRecordWrite(record: unknown, index: number): VerifiedMemory {
  const parsed = VerifiedMemorySchema.safeParse(record);
  if (!parsed.success) {
    const id = (record as { id?: unknown } | null)?.id;
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `apply: write ${index} (memory ${JSON.stringify(id)}) is not a valid verified memory: ${describeRecordIssues(parsed.error.issues)}`,
      { details: { index, id } },
    );
  }
  return parsed.data;
}

/** Validate telemetry event `index` of `action`; `INVALID_ARGUMENT` otherwise. */
export function checkTelemetryEvent(event: unknown, index: number, action: string): TelemetryEvent {
  const parsed = TelemetryEventSchema.safeParse(event);
  if (!parsed.success) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `${action}: event ${index} is not a valid telemetry event: ${describeRecordIssues(parsed.error.issues)}`,
      { details: { index } },
    );
  }
  return parsed.data;
}
