// Why: core's document task-record backend is the reference implementation of the contract; it
// must pass the shared suite on the in-memory store (other stores run it in their packages).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDocumentTaskRecordBackend, createInMemoryStore } from '../../src/index.js';
import { runTaskRecordBackendConformance } from '../../src/testing/index.js';

runTaskRecordBackendConformance({
  name: 'document task-record backend on the in-memory store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () => createDocumentTaskRecordBackend(createInMemoryStore()),
});
