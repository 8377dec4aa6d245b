// Why: the CLI opens every store and citation reader through core's registry, like library users
// do. Which scheme names which package is core's map alone; the CLI only hands core an `import()`
// of each package it ships with (SQLite, directory, git, GitHub, PostgreSQL), calls its bundler can
// see, so the binary carries them (and one copy of core) instead of resolving packages at run
// time. Packages it does not ship (`agentcore:`, `dynamodb:`) keep the registry's run-time loaders
// and work once installed.
import { StoreRegistry } from '@repomem/core';

/** The registry behind `--store`, `--dir`, `$REPOMEM_STORE`, `$MEMORY_DIR` and `--source`. */
export const cliRegistry: StoreRegistry = new StoreRegistry({
  packages: {
    '@repomem/store-sqlite': () => import('@repomem/store-sqlite'),
    '@repomem/store-fs': () => import('@repomem/store-fs'),
    '@repomem/store-git': () => import('@repomem/store-git'),
    '@repomem/store-postgres': () => import('@repomem/store-postgres'),
    '@repomem/github': () => import('@repomem/github'),
  },
});
