// Why: barrel of the retrieval module (embedders, chunks, vectors kept with the memory).
export {
  type Chunk,
  chunkDocument,
  chunkGitHubJson,
  chunkHash,
  chunkMarkdown,
  chunkRecord,
  MAX_CHUNK_CHARS,
} from './chunks.js';
export {
  assertEmbedder,
  createTestEmbedder,
  type Embedder,
  type EmbedOptions,
  type GuardEmbedderOptions,
  guardEmbedder,
  normalizeVector,
  type TestEmbedderOptions,
} from './embedder.js';
export {
  BUILTIN_EMBEDDER_PACKAGES,
  type EmbedderScheme,
  type EmbedderSchemeLoader,
  type EmbedderSchemeModule,
  type EmbedderSpec,
  type OpenEmbedderContext,
  openEmbedder,
  parseEmbedderSpec,
  registerEmbedderScheme,
} from './embedder-registry.js';
export { DEFAULT_RRF_K, type FusedItem, type FusionOptions, reciprocalRankFusion } from './fusion.js';
export {
  HYBRID_CANDIDATE_DEPTH,
  type HybridSearchHit,
  type HybridSearchOptions,
  type HybridSearchResponse,
  hybridSearch,
} from './hybrid-search.js';
export {
  createSemanticIndex,
  type RefreshOptions,
  type RefreshResult,
  type SemanticHit,
  type SemanticIndex,
  type SemanticIndexOptions,
  type SemanticIndexStatus,
} from './semantic-index.js';
export { VECTOR_INDEX_PREFIX, vectorIndexFolder } from './vector-store.js';
