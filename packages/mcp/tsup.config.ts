// Why: ESM + CJS + d.ts like @repomem/core. tsup keeps every `dependencies` entry (the MCP SDK, the
// caches, zod, core itself) external, so the application shares one copy of each.
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  platform: 'node',
});
