import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/index.js';
import { runRecordBackendConformance } from '../../src/testing/index.js';
import { createDocumentRecordBackend } from '../../src/verified/index.js';

// The same suite over the directory store runs in @repomem/store-fs.
runRecordBackendConformance({
  name: 'document record backend on the in-memory store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () => createDocumentRecordBackend(createInMemoryStore()),
});
