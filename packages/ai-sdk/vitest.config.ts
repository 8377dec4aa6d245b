import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'ai-sdk',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
