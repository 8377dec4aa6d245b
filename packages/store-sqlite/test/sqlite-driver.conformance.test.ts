// Why: the SQLite driver runs the kit's driver suite and, through it, the store, hardening,
// verified-record and task-record suites on createStore(driver), with a second connection to the
// same file and repository scope as `openAnother`.
import { join } from 'node:path';
import { runDriverConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteDriver, type SqliteDriver } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

runDriverConformance<SqliteDriver>({
  name: 'sqlite driver',
  runner: { describe, it, expect, beforeEach, afterEach },
  createDriver: async () =>
    createSqliteDriver({ path: join(await freshDirectory(), 'memory.db'), repo: 'acme/rocket' }),
  openAnother: async (driver) => createSqliteDriver({ path: driver.file, repo: driver.repo }),
  teardown: (driver) => removeDirectory(join(driver.file, '..')),
});
