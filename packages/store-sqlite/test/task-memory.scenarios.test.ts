// Why: task memory on the default store: the seed's contradiction scenarios (Jest then Vitest,
// scoped module rules) and its error-handling table, row by row, on a real SQLite file.
import { join } from 'node:path';
import { runTaskMemoryScenarios } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

runTaskMemoryScenarios<SqliteStore>({
  name: 'task memory scenarios on the SQLite store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () =>
    openSqliteStore({ path: join(await freshDirectory('repomem-sqlite-scenarios-'), 'memory.db'), repo: 'acme/app' }),
  teardown: (store) => removeDirectory(join(store.file, '..')),
});
