import { join } from 'node:path';
import { runRecordBackendConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteRecordBackend, openSqliteStore, type SqliteRecordBackend } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

runRecordBackendConformance<SqliteRecordBackend>({
  name: 'sqlite record backend conformance',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () => openSqliteRecordBackend({ path: join(await freshDirectory(), 'memory.db') }),
  teardown: (backend) => removeDirectory(join(backend.file, '..')),
});

runRecordBackendConformance<SqliteRecordBackend>({
  name: 'sqlite record backend conformance (a file shared with documents)',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () => {
    const path = join(await freshDirectory(), 'memory.db');
    // Documents in the same file (with words the record searches use) must not leak into records.
    const store = await openSqliteStore({ path, repo: 'acme/app' });
    await store.write([
      { kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('- vitest NEAR config, redux v2\n') },
    ]);
    await store.close();
    return openSqliteRecordBackend({ path });
  },
  teardown: (backend) => removeDirectory(join(backend.file, '..')),
});
