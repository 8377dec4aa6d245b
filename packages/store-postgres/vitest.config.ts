import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'store-postgres',
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
