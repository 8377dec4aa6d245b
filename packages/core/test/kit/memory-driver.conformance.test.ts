// Why: the in-memory driver is the reference reading of the driver contract; it passes the
// driver suite (and, through it, every store and record suite on `createStore(driver)`).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInMemoryDriver } from '../../src/kit/index.js';
import { runDriverConformance } from '../../src/testing/index.js';

runDriverConformance({
  name: 'in-memory driver',
  runner: { describe, it, expect, beforeEach, afterEach },
  createDriver: async () => createInMemoryDriver(),
});
