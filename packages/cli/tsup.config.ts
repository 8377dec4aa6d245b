// Why: two builds. The library entry (`runCli`) keeps @repomem/* external like any dependency.
// The `repomem` binary is ONE esbuild build with code splitting, so every module (core's
// RepomemError, the CLI's error classes, each store, zod) exists once and errors are recognised
// with `instanceof`; a cold start pays no module resolution across packages:
// - `bin` is the only entry; each command and each store package (the registry's loaders in
//   src/store-registry.ts) is a dynamic import, so it becomes its own chunks, loaded on demand
//   after the compile cache is on;
// - esbuild splits per source file, not per function: a file reached by several commands is
//   emitted once with everything any of them uses from it. Core's dist is two large files, so
//   taking core from there would make every command load nearly all of core (verified memories,
//   envelopes, policies and the classic zod they use). Core is therefore bundled from its
//   TypeScript sources, module by module (the store packages' dist files import `@repomem/core`
//   and get the same modules): `update` and `search` load the facade, Markdown, store and search
//   modules only. Core's entry does no I/O and loads no store package, so this is the same code
//   a library user gets;
// - `import { z } from 'zod'` is bundled as a namespace import (see zodNamespaceImports), and
//   the binary is minified with names kept: `repomem update add` loads ~190 KB instead of
//   ~905 KB (measured with a loader hook recording every file loaded).
// `node:sqlite` exists only with its `node:` prefix, so the prefix is kept and the module stays
// external (a builtin is never bundled).
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import { coreDirectImports } from './build/core-direct-imports.js';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

const sourceOf = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

/** Core's source entry; the stores' dist files import `@repomem/core` too and share its modules. */
const CORE_SOURCE = sourceOf('../core/src/index.ts');

/** `import { z } from 'zod'` (or `{ z as z2 }`), in TypeScript sources and the packages' dist files. */
const ZOD_NAMED_NAMESPACE = /import\s*\{\s*z(?:\s+as\s+([A-Za-z_$][\w$]*))?\s*\}\s*from\s*(['"])zod\2/g;

/**
 * Two rewrites of the TypeScript sources and the packages' dist files before esbuild reads them:
 * - `import { z } from 'zod'` becomes `import * as z from 'zod'` (the same members: zod's entry
 *   re-exports everything of `z`). zod's `z` is a namespace re-exported as a value, which esbuild
 *   must build in full, with every locale (~500 KB); a namespace import is tree-shaken per member,
 *   so classic zod costs only what repomem uses and no command loads the locales it never shows;
 * - `import { a, b } from '@repomem/core'` becomes imports of the core modules that declare `a`
 *   and `b` (see build/core-direct-imports.ts): no barrel in the graph, so a command's chunks hold
 *   what it uses.
 */
function sourceRewrites(): Plugin {
  const directCoreImports = coreDirectImports(CORE_SOURCE);
  return {
    name: 'repomem-source-rewrites',
    setup(build) {
      build.onLoad({ filter: /[\\/]packages[\\/][\w-]+[\\/](src|dist)[\\/].*\.(ts|js)$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        let contents = text;
        if (ZOD_NAMED_NAMESPACE.test(contents)) {
          ZOD_NAMED_NAMESPACE.lastIndex = 0;
          contents = contents.replace(
            ZOD_NAMED_NAMESPACE,
            (_match, alias: string | undefined, quote: string) =>
              `import * as ${alias ?? 'z'} from ${quote}zod${quote}`,
          );
        }
        ZOD_NAMED_NAMESPACE.lastIndex = 0;
        if (contents.includes('@repomem/core')) contents = directCoreImports(contents);
        if (contents === text) return undefined;
        return { contents, loader: args.path.endsWith('.ts') ? 'ts' : 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

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
    clean: false,
    target: 'node22',
    platform: 'node',
    noExternal: [/^(?!node:)/],
    external: ['node:sqlite'],
    removeNodeProtocol: false,
    splitting: true,
    // Minified, names kept (classes and functions keep their `.name`); source maps beside every
    // chunk (`node --enable-source-maps` for readable stack traces).
    minify: true,
    keepNames: true,
    // Bundled CommonJS dependencies call `require` for builtins; give every ESM chunk a real one.
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __repomemCreateRequire } from 'node:module';\nconst require = __repomemCreateRequire(import.meta.url);",
    },
    esbuildOptions(options) {
      options.alias = { ...options.alias, '@repomem/core': CORE_SOURCE };
      // The registry's own loader for schemes the CLI does not ship (`agentcore:`, `postgres:`)
      // imports a package named at run time, on purpose.
      options.logOverride = { ...options.logOverride, 'unsupported-dynamic-import': 'silent' };
    },
    esbuildPlugins: [sourceRewrites()],
  },
]);
