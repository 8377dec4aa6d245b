import { defineConfig } from 'vitest/config';

// Why: checks of the repository as a newcomer meets it (the Node floor everywhere it is stated,
// the launcher under an old Node, packed tarballs installed with plain npm, the READMEs' code
// blocks), as opposed to any one package's behaviour.
export default defineConfig({
  test: {
    name: 'repo',
    include: ['*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
