// Why: the public entry point of @repomem/store-fs; everything exported here is documented API.

export type { DirectoryDriver } from './directory-driver.js';
export {
  createDirectoryCitationReader,
  DEFAULT_CITATION_MAX_BYTES,
  type DirectoryCitationReaderOptions,
  gitBlobSha,
  isBinaryContent,
  WORKTREE_REVISION,
} from './directory-reader.js';
export {
  createDirectoryDriver,
  type DirectoryStore,
  type DirectoryStoreOptions,
  openDirectoryStore,
} from './directory-store.js';
export { citationReaderScheme, type DirectorySpecTarget, storeScheme } from './scheme.js';
export {
  MAX_CACHE_FILES,
  type SearchCacheEnvironment,
  searchCacheDirectory,
  searchCacheFile,
} from './search-cache-file.js';
export { STATE_DIRECTORY_NAME } from './store-location.js';
