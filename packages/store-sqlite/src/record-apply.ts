// Why: the compare-and-swap write of verified memories. One `BEGIN IMMEDIATE` transaction checks
// every expected revision and then writes the records, their citation rows, their FTS5 rows and
// the telemetry events together, so two processes never lose each other's changes and a crash
// leaves all of a batch or none of it.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import {
  checkRecordWrite,
  checkTelemetryEvent,
  type RecordApplyResult,
  type RecordConflict,
  type RecordWrite,
  RepomemError,
  type TelemetryEvent,
  type VerifiedMemory,
} from '@repomem/core';
import { scopeToken } from './fts-query.js';
import { citedPaths, MEMORY_COLUMNS, memoryParameters } from './record-rows.js';
import { rollbackQuietly } from './schema.js';

/** A record write checked and converted to bind parameters before the write lock is taken. */
export interface PlannedWrite {
  readonly record: VerifiedMemory;
  readonly expectedRevision: number | null;
  readonly parameters: Array<string | number | null>;
  /** JSON of the citations, compared with the stored one to skip rewriting unchanged rows. */
  readonly citationsJson: string;
}

/** A telemetry event converted to bind parameters. */
export type PlannedEvent = readonly [repo: string, memoryId: string, type: string, at: string, details: string | null];

function checkExpected(value: unknown, index: number): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `apply: write ${index} has expectedRevision ${String(value)}; expected null (create) or a revision >= 1`,
      { details: { index } },
    );
  }
  return value;
}

/** Check and convert a batch of writes; `INVALID_ARGUMENT` for a bad record or a memory written twice. */
export function planWrites(writes: readonly RecordWrite[]): PlannedWrite[] {
  if (!Array.isArray(writes)) throw new RepomemError('INVALID_ARGUMENT', 'apply: writes must be an array');
  const seen = new Set<string>();
  return writes.map((write, index) => {
    if (write === null || typeof write !== 'object') {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `apply: write ${index} must be an object { record, expectedRevision }`,
      );
    }
    const record = checkRecordWrite(write.record, index);
    const expectedRevision = checkExpected(write.expectedRevision, index);
    const key = JSON.stringify([record.repo, record.id]);
    if (seen.has(key)) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `apply: memory ${record.id} of ${record.repo} is written twice in one batch`,
        { details: { id: record.id, repo: record.repo } },
      );
    }
    seen.add(key);
    return {
      record,
      expectedRevision,
      parameters: memoryParameters(record),
      citationsJson: JSON.stringify(record.citations),
    };
  });
}

/** Check and convert telemetry events; `INVALID_ARGUMENT` for a bad one. */
export function planEvents(events: readonly TelemetryEvent[], action: string): PlannedEvent[] {
  if (!Array.isArray(events)) throw new RepomemError('INVALID_ARGUMENT', `${action}: events must be an array`);
  return events.map((input, index) => {
    const event = checkTelemetryEvent(input, index, action);
    let details: string | null = null;
    if (event.details !== undefined) {
      try {
        details = JSON.stringify(event.details);
      } catch (error) {
        throw new RepomemError(
          'INVALID_ARGUMENT',
          `${action}: event ${index} has details that cannot be stored as JSON (${(error as Error).message})`,
          { details: { index } },
        );
      }
    }
    return [event.repo, event.memory_id, event.type, event.at, details] as const;
  });
}

interface CurrentRow {
  readonly seq: number;
  readonly revision: number;
  readonly subject: string;
  readonly fact: string;
  readonly reason: string | null;
  readonly scope: string | null;
  readonly citations: string;
}

const MEMORY_ASSIGNMENTS = MEMORY_COLUMNS.map((column) => `${column} = ?`).join(', ');

/** The write statements of one connection, prepared once. */
export class RecordWriteStatements {
  readonly #current: StatementSync;
  readonly #insert: StatementSync;
  readonly #update: StatementSync;
  readonly #citationsDelete: StatementSync;
  readonly #citationInsert: StatementSync;
  readonly #ftsInsert: StatementSync;
  readonly #ftsDelete: StatementSync;
  readonly #eventInsert: StatementSync;
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#current = db.prepare(
      'SELECT seq, revision, subject, fact, reason, scope, citations FROM memories WHERE repo = ? AND id = ?',
    );
    this.#insert = db.prepare(
      `INSERT INTO memories (${MEMORY_COLUMNS.join(', ')}) VALUES (${MEMORY_COLUMNS.map(() => '?').join(', ')}) RETURNING seq`,
    );
    this.#update = db.prepare(`UPDATE memories SET ${MEMORY_ASSIGNMENTS} WHERE seq = ?`);
    this.#citationsDelete = db.prepare('DELETE FROM memory_citations WHERE repo = ? AND memory_id = ?');
    this.#citationInsert = db.prepare('INSERT INTO memory_citations (repo, memory_id, path) VALUES (?, ?, ?)');
    this.#ftsInsert = db.prepare(
      'INSERT INTO memories_fts (rowid, repo_scope, subject, fact, reason, scope) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.#ftsDelete = db.prepare('DELETE FROM memories_fts WHERE rowid = ?');
    this.#eventInsert = db.prepare(
      'INSERT INTO memory_events (repo, memory_id, type, at, details) VALUES (?, ?, ?, ?, ?)',
    );
  }

  /**
   * Remove a memory, its citation rows and its index entry when its revision is still
   * `expectedRevision`, in one IMMEDIATE transaction; `false` when absent or changed.
   */
  remove(repo: string, id: string, expectedRevision: number): boolean {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const row = this.#current.get(repo, id) as CurrentRow | undefined;
      if (row === undefined || Number(row.revision) !== expectedRevision) {
        this.#db.exec('ROLLBACK');
        return false;
      }
      this.#ftsDelete.run(row.seq);
      this.#citationsDelete.run(repo, id);
      this.#db.prepare('DELETE FROM memories WHERE seq = ?').run(row.seq);
      this.#db.exec('COMMIT');
      return true;
    } catch (error) {
      rollbackQuietly(this.#db);
      throw error;
    }
  }

  /** Append events inside the caller's transaction. */
  insertEvents(events: readonly PlannedEvent[]): void {
    for (const event of events) this.#eventInsert.run(...event);
  }

  #index(seq: number, record: VerifiedMemory): void {
    this.#ftsInsert.run(
      seq,
      scopeToken(record.repo),
      record.subject,
      record.fact,
      record.reason ?? '',
      record.scope ?? '',
    );
    for (const path of citedPaths(record)) this.#citationInsert.run(record.repo, record.id, path);
  }

  #write(write: PlannedWrite, current: CurrentRow | undefined): void {
    const { record } = write;
    if (current === undefined) {
      const inserted = this.#insert.get(...write.parameters) as { seq: number };
      this.#index(Number(inserted.seq), record);
      return;
    }
    this.#update.run(...write.parameters, current.seq);
    const textChanged =
      current.subject !== record.subject ||
      current.fact !== record.fact ||
      current.reason !== record.reason ||
      current.scope !== record.scope ||
      current.citations !== write.citationsJson;
    if (!textChanged) return;
    this.#ftsDelete.run(current.seq);
    this.#citationsDelete.run(record.repo, record.id);
    this.#index(current.seq, record);
  }

  /**
   * Check every expected revision and apply the batch with its events in one IMMEDIATE
   * transaction; on any conflict roll back and return all conflicts.
   */
  apply(writes: readonly PlannedWrite[], events: readonly PlannedEvent[]): RecordApplyResult {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const current: Array<CurrentRow | undefined> = [];
      const conflicts: RecordConflict[] = [];
      for (const write of writes) {
        const row = this.#current.get(write.record.repo, write.record.id) as CurrentRow | undefined;
        current.push(row);
        const actual = row === undefined ? null : Number(row.revision);
        if (actual !== write.expectedRevision) {
          conflicts.push({ id: write.record.id, expectedRevision: write.expectedRevision, actualRevision: actual });
        }
      }
      if (conflicts.length > 0) {
        this.#db.exec('ROLLBACK');
        return { ok: false, conflicts };
      }
      writes.forEach((write, index) => {
        this.#write(write, current[index]);
      });
      this.insertEvents(events);
      this.#db.exec('COMMIT');
      return { ok: true };
    } catch (error) {
      rollbackQuietly(this.#db);
      throw error;
    }
  }
}
