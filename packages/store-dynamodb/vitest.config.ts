import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'store-dynamodb',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
