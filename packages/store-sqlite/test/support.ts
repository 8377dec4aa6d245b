// Why: helpers shared by the SQLite store tests: fresh temp directories, a raw view of the rows
// through a second connection (bypassing the store), a writable one for tampering with a file,
// the RepomemError assertion, and the built package child processes import.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isRepomemError } from '@repomem/core';
import { expect } from 'vitest';
import type { SqliteStore } from '../src/index.js';

/** packages/store-sqlite */
export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** A fresh empty temp directory. */
export function freshDirectory(prefix = 'repomem-sqlite-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Remove a temp directory. */
export function removeDirectory(path: string): Promise<void> {
  return rm(path, { recursive: true, force: true });
}

/** Run `work` with a second, read-only connection to `file`, closed afterwards. */
export function withRawConnection<T>(file: string, work: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** Run `work` with a second, writable connection to `file` (to tamper with it), closed afterwards. */
export function withWritableConnection(file: string, work: (db: DatabaseSync) => void): void {
  const db = new DatabaseSync(file);
  try {
    work(db);
  } finally {
    db.close();
  }
}

/**
 * Assert `action` throws or rejects with a RepomemError of `code` whose message contains every
 * one of `parts`; resolves that error.
 */
export async function expectRepomemError(action: () => unknown, code: string, ...parts: string[]): Promise<Error> {
  let caught: unknown;
  try {
    await action();
  } catch (error) {
    caught = error;
  }
  expect(isRepomemError(caught), `expected a RepomemError, got ${String(caught)}`).toBe(true);
  const error = caught as Error & { code: string };
  expect(error.code, error.message).toBe(code);
  for (const part of parts) expect(error.message).toContain(part);
  return error;
}

/** The persisted bytes of `path` in the store's scope, read through a second connection. */
export async function readRow(store: SqliteStore, path: string): Promise<Uint8Array | undefined> {
  return withRawConnection(store.file, (db) => {
    const row = db
      .prepare(
        'SELECT c.content AS content FROM documents d JOIN document_contents c ON c.id = d.id WHERE d.repo = ? AND d.path = ?',
      )
      .get(store.repo, path) as { content: Uint8Array } | undefined;
    return row === undefined ? undefined : new Uint8Array(row.content);
  });
}

/** Every persisted path of the store's scope, read through a second connection. */
export async function listRows(store: SqliteStore): Promise<string[]> {
  return withRawConnection(store.file, (db) =>
    (db.prepare('SELECT path FROM documents WHERE repo = ?').all(store.repo) as Array<{ path: string }>).map(
      (row) => row.path,
    ),
  );
}

/**
 * URL of the built package (dist/index.js) for child processes. Builds it when dist is missing or
 * older than the sources it needs (normally the test pipeline builds first).
 */
export function builtPackageUrl(): string {
  const entry = join(packageRoot, 'dist/index.js');
  const fresh = existsSync(entry) && readFileSync(entry, 'utf8').includes('searchCandidates');
  if (!fresh) {
    const tsup = resolve(packageRoot, '../../node_modules/.bin/tsup');
    execFileSync(tsup, [], { cwd: packageRoot, stdio: 'ignore' });
  }
  return pathToFileURL(entry).href;
}
