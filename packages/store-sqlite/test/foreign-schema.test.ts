// Why: a file marked with repomem's application id (and a schema version) whose tables are not
// repomem's must be refused at open with a clear error, not fail later with "SQL logic error".
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { isRepomemError } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, SQLITE_APPLICATION_ID, SQLITE_SCHEMA_VERSION } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

let dir: string;
beforeEach(async () => {
  dir = await freshDirectory();
});
afterEach(async () => {
  await removeDirectory(dir);
});

function foreignFile(version: number, tables: string): string {
  const file = join(dir, `foreign-${version}.db`);
  const db = new DatabaseSync(file);
  db.exec(tables);
  db.exec(`PRAGMA application_id = ${SQLITE_APPLICATION_ID}`);
  db.exec(`PRAGMA user_version = ${version}`);
  db.close();
  return file;
}

async function openError(file: string): Promise<unknown> {
  try {
    const store = await openSqliteStore({ path: file });
    await store.close();
  } catch (error) {
    return error;
  }
  throw new Error('expected the open to be refused');
}

describe('SQLite store: a foreign schema carrying repomem’s application id', () => {
  it('at the current schema version: UNSUPPORTED naming the missing table', async () => {
    const file = foreignFile(SQLITE_SCHEMA_VERSION, 'CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);');
    const error = await openError(file);
    expect(isRepomemError(error, 'UNSUPPORTED'), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/is marked as a repomem store .* table \w+ is missing/);
    expect((error as Error).message).not.toMatch(/SQL logic error/);
  });

  it('with a repomem table of another shape: UNSUPPORTED naming the missing columns', async () => {
    const file = foreignFile(SQLITE_SCHEMA_VERSION, 'CREATE TABLE repomem_meta (k TEXT);');
    const error = await openError(file);
    expect(isRepomemError(error, 'UNSUPPORTED'), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/table repomem_meta lacks columns/);
  });

  it('at an older schema version whose migration cannot run: UNSUPPORTED, and the file is left as it was', async () => {
    const file = foreignFile(1, 'CREATE TABLE documents (x TEXT);');
    const error = await openError(file);
    expect(isRepomemError(error, 'UNSUPPORTED'), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/is marked as a repomem store \(schema version 1\)/);
    const db = new DatabaseSync(file);
    expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(1);
    db.close();
  });
});
