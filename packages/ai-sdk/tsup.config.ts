// Why: ESM + CJS + d.ts like @repomem/core. Core, the MCP tool declarations, zod and the AI SDK
// stay external: `ai` is a peer dependency, so the application's copy builds the tools.
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node22',
  platform: 'node',
  external: ['@repomem/core', '@repomem/mcp', 'ai', 'zod'],
});
