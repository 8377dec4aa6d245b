// Why: verified memories can live as documents of any store (core's document record backend);
// the directory store must hold them as well as the in-memory one does.
import { createDocumentRecordBackend } from '@repomem/core';
import { runRecordBackendConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDirectoryStore } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

const roots: string[] = [];
runRecordBackendConformance({
  name: 'document record backend on the directory store',
  runner: { describe, it, expect, beforeEach, afterEach },
  createBackend: async () => {
    const root = await freshDirectory('repomem-records-');
    roots.push(root);
    return createDocumentRecordBackend(await openDirectoryStore({ root }));
  },
  teardown: async () => {
    for (const root of roots.splice(0)) await removeDirectory(root);
  },
});
