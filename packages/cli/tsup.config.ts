// Why: two builds. The library entry (`runCli`, `openStoreFromSpec`) keeps @repomem/* external
// like any dependency. The `repomem` binary bundles core, the stores and their dependencies into
// one file, so a cold start pays no module resolution across packages (goal: a cold query in
// < 150 ms). `node:sqlite` exists only with its `node:` prefix, so the prefix is kept and the
// module stays external (a builtin is never bundled).
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
    external: ['node:sqlite'],
    removeNodeProtocol: false,
  },
  {
    entry: { bin: 'src/bin.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node22',
    platform: 'node',
    noExternal: [/^(?!node:)/],
    external: ['node:sqlite'],
    removeNodeProtocol: false,
    // The dynamic import in bin.ts becomes its own chunk, loaded after the compile cache is on.
    splitting: true,
    // Bundled CommonJS dependencies call `require` for builtins; give every ESM chunk a real one.
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __repomemCreateRequire } from 'node:module';\nconst require = __repomemCreateRequire(import.meta.url);",
    },
  },
]);
