// Why: the SQLite store runs core's hardening suite (paths git refuses, verified records kept out
// of document search, bounded queries through its FTS5 candidates, bullet text rules).
import { join } from 'node:path';
import { runStoreHardening } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

runStoreHardening<SqliteStore>({
  name: 'sqlite store hardening',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => openSqliteStore({ path: join(await freshDirectory(), 'memory.db') }),
  teardown: (store) => removeDirectory(join(store.file, '..')),
});
