import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'store-agentcore',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
