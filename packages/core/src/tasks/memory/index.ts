// Why: barrel of task memory's life cycle (hydrate, receipts, episodes, learnings, preferences).
export * from './delivery-log.js';
export * from './episode-record.js';
export * from './episodes.js';
export * from './failure.js';
export * from './hydrate.js';
export {
  LEXICAL_RELEVANCE_FLOOR,
  normalizeWord,
  type RelevanceQuery,
  relevanceQuery,
  SCOPE_MATCH_BONUS,
  SEMANTIC_RELEVANCE_FLOOR,
  type SemanticScorer,
} from './hydrate-relevance.js';
export { MEMORY_CONTEXT_VARIABLE, renderPromptWithMemory } from './hydrate-render.js';
export { PREFERENCE_PRIOR, PREFERENCES_GIVEN } from './hydrate-score.js';
export { CANDIDATE_POOL, DEFAULT_SOURCE_LIMITS } from './hydrate-sources.js';
export * from './hydrate-types.js';
export * from './knowledge-record.js';
export * from './learnings.js';
export * from './learnings-parse.js';
export * from './preferences.js';
export * from './receipt.js';
export * from './retry.js';
export * from './token-estimate.js';
