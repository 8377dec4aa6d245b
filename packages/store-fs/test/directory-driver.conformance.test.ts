// Why: the directory driver keeps the store kit's driver contract (bytes, content versions,
// ordered scans, namespaces apart, compare-and-swap races, isolated batches, twins), and every
// store and record suite passes on `createStore(driver)` built from it directly.
import { dirname } from 'node:path';
import { runDriverConformance } from '@repomem/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDirectoryDriver } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

runDriverConformance({
  name: 'directory driver',
  runner: { describe, it, expect, beforeEach, afterEach },
  createDriver: async () => createDirectoryDriver({ root: `${await freshDirectory()}/memory`, create: true }),
  openAnother: (driver) => createDirectoryDriver({ root: driver.root, stateDir: driver.stateDir }),
  teardown: async (driver) => {
    await removeDirectory(dirname(driver.root));
  },
});
