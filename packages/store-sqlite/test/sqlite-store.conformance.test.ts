import { join } from 'node:path';
import { runStoreConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteStore } from '../src/index.js';
import { freshDirectory, listRows, readRow, removeDirectory } from './support.js';

runStoreConformance<SqliteStore>({
  name: 'sqlite store conformance',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => openSqliteStore({ path: join(await freshDirectory(), 'memory.db') }),
  teardown: (store) => removeDirectory(join(store.file, '..')),
  rawRead: readRow,
  rawList: listRows,
  openAnother: (store) => openSqliteStore({ path: store.file, repo: store.repo }),
});

runStoreConformance<SqliteStore>({
  name: 'sqlite store conformance (a second repo scope in a shared file)',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => {
    const path = join(await freshDirectory(), 'memory.db');
    // Another scope with documents in the same file must not leak into this one.
    const neighbour = await openSqliteStore({ path, repo: 'neighbour/repo' });
    await neighbour.write([
      { kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('- neighbour\n') },
      { kind: 'put', path: 'daily/2026-05-01.md', content: new TextEncoder().encode('# neighbour\n') },
    ]);
    await neighbour.close();
    return openSqliteStore({ path, repo: 'acme/rocket' });
  },
  teardown: (store) => removeDirectory(join(store.file, '..')),
  rawRead: readRow,
  rawList: listRows,
  openAnother: (store) => openSqliteStore({ path: store.file, repo: store.repo }),
});
