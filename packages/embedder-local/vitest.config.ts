import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'embedder-local',
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
