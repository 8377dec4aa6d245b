// Why: the CLI opens every store and citation reader through core's registry, like library users
// do, but from its own registry instance: the packages it ships with (SQLite, directory, git,
// GitHub, PostgreSQL) are registered with `import()` calls a bundler can see, so the binary
// carries them (and one copy of core) instead of resolving packages at run time. Schemes it does
// not ship (`agentcore:`) keep the registry's built-in loaders and work once their package is
// installed.
import { StoreRegistry } from '@repomem/core';

/** The registry behind `--store`, `--dir`, `$REPOMEM_STORE`, `$MEMORY_DIR` and `--source`. */
export const cliRegistry: StoreRegistry = new StoreRegistry();

cliRegistry.registerStoreScheme('sqlite', () => import('@repomem/store-sqlite'));
cliRegistry.registerStoreScheme('dir', () => import('@repomem/store-fs'));
cliRegistry.registerStoreScheme('git', () => import('@repomem/store-git'));
cliRegistry.registerStoreScheme('postgres', () => import('@repomem/store-postgres'));
cliRegistry.registerStoreScheme('postgresql', () => import('@repomem/store-postgres'));
cliRegistry.registerCitationReaderScheme('dir', () => import('@repomem/store-fs'));
cliRegistry.registerCitationReaderScheme('git', () => import('@repomem/store-git'));
cliRegistry.registerCitationReaderScheme('github', () => import('@repomem/github'));
