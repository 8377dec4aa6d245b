import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'store-fs',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    // One process per test file: the lazy-revision test reads this process's I/O counters.
    pool: 'forks',
  },
});
