import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  platform: 'node',
  // `import.meta.url` in the CommonJS build (the testing helpers locate their worker script).
  shims: true,
  // `stemmer` ships ES modules only: bundled, so the CommonJS build never `require`s an ES module.
  noExternal: ['stemmer'],
});
