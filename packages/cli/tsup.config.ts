// Why: three builds. The library entry (`runCli`, `openStoreFromSpec`) keeps @repomem/* external
// like any dependency. The `repomem` binary bundles core, the stores and their dependencies, so a
// cold start pays no module resolution across packages (goal: a cold query in < 150 ms):
// - core is bundled from its TypeScript sources, module by module, rather than from core's
//   one-file dist, so modules a command does not use are dropped or split into other chunks;
// - `bin` is split into chunks per command (loaded on demand, after the compile cache is on);
// - the search itself (`search-command.js`, what `repomem search` loads once its arguments are
//   valid) is a separate bundle without splitting. esbuild splits per file, so with the other
//   commands in the same build the search would load whole shared files: all of zod's core
//   (the union of what every command uses, ~700 KB) and every module behind a core barrel it
//   touches. On its own it is tree-shaken to what it uses (~130 KB). It reaches the SQLite and
//   git stores through the `store-sqlite.js` / `store-git.js` entries of the `bin` build, so
//   the stores are bundled once.
// `node:sqlite` exists only with its `node:` prefix, so the prefix is kept and the module stays
// external (a builtin is never bundled).
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

const sourceOf = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** Core's source entry; the stores' dist files import `@repomem/core` too and share it. */
const CORE_SOURCE = sourceOf('../core/src/index.ts');

/** Output file (next to every chunk in dist/) of the search bundle, as imported by the `bin` build. */
const SEARCH_COMMAND_OUTPUT = './search-command.js';

/** Options shared by the two binary builds. */
const binaryBuild: Options = {
  format: ['esm'],
  sourcemap: true,
  target: 'node22',
  platform: 'node',
  noExternal: [/^(?!node:)/],
  external: ['node:sqlite'],
  removeNodeProtocol: false,
  // Bundled CommonJS dependencies call `require` for builtins; give every ESM chunk a real one.
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __repomemCreateRequire } from 'node:module';\nconst require = __repomemCreateRequire(import.meta.url);",
  },
};

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
    ...binaryBuild,
    entry: {
      bin: 'src/bin.ts',
      // Fixed names the search bundle imports; the other commands share the same chunks.
      'store-sqlite': sourceOf('../store-sqlite/dist/index.js'),
      'store-git': sourceOf('../store-git/dist/index.js'),
    },
    esbuildOptions(options) {
      options.alias = { ...options.alias, '@repomem/core': CORE_SOURCE };
    },
    esbuildPlugins: [
      {
        name: 'repomem-search-command',
        setup(build) {
          // commands/search.ts loads the search from the separate bundle built below.
          build.onResolve({ filter: /^\.\/search-run\.js$/ }, (args) =>
            args.importer.endsWith('search.ts') ? { path: SEARCH_COMMAND_OUTPUT, external: true } : undefined,
          );
        },
      },
    ],
    // Each command (a dynamic import) becomes its own chunk.
    splitting: true,
  },
  {
    ...binaryBuild,
    entry: { 'search-command': 'src/commands/search-run.ts' },
    esbuildOptions(options) {
      options.alias = { ...options.alias, '@repomem/core': CORE_SOURCE };
    },
    esbuildPlugins: [
      {
        name: 'repomem-stores-from-bin',
        setup(build) {
          build.onResolve({ filter: /^@repomem\/store-(sqlite|git)$/ }, (args) => ({
            path: `./${args.path.slice('@repomem/'.length)}.js`,
            external: true,
          }));
        },
      },
    ],
    splitting: false,
  },
]);
