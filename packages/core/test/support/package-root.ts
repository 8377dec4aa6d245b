// Why: tests that inspect the built package need its root directory, computed once.
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** packages/core */
export const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
