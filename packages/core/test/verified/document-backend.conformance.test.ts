import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInMemoryStore, openDirectoryStore } from '../../src/index.js';
import { runRecordBackendConformance } from '../../src/testing/index.js';
import { createDocumentRecordBackend } from '../../src/verified/index.js';

runRecordBackendConformance({
  name: 'document record backend on the in-memory store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () => createDocumentRecordBackend(createInMemoryStore()),
});

const roots: string[] = [];
runRecordBackendConformance({
  name: 'document record backend on the directory store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () => {
    const root = await mkdtemp(join(tmpdir(), 'repomem-records-'));
    roots.push(root);
    return createDocumentRecordBackend(await openDirectoryStore({ root }));
  },
  teardown: async () => {
    for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
  },
});
