// Why: ESM + CJS + d.ts like @repomem/core. Core, zod and LangGraph stay external: LangGraph is a
// peer dependency, so the application's own copy of `BaseStore` is the one this store extends.
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  platform: 'node',
  external: ['@repomem/core', '@langchain/langgraph-checkpoint', 'zod'],
});
