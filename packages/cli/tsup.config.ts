// Why: two builds. The library entry (`runCli`) keeps @repomem/core external like any
// dependency. The `repomem` binary bundles core and its dependencies into one file, so a cold
// start pays no module resolution across packages (goal: a cold query in < 150 ms).
import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: false,
    target: 'node22',
    platform: 'node',
  },
  {
    entry: { bin: 'src/bin.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node22',
    platform: 'node',
    noExternal: [/.*/],
    // The dynamic import in bin.ts becomes its own chunk, loaded after the compile cache is on.
    splitting: true,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
