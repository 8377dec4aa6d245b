// Why: ESM + CJS + d.ts like @repomem/core. The driver (`pg`), `p-retry` and `zod` stay external
// dependencies so an application shares one copy with its own code (and can inject its own pool).
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  platform: 'node',
  external: ['@repomem/core', 'pg', 'p-retry', 'zod'],
});
