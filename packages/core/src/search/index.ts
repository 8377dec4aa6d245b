// Why: barrel of the search module (public API re-exports).
export {
  BINARY_SNIFF_BYTES,
  type DecodedDocument,
  decodeSearchableBytes,
  decodeSearchableText,
  isOversized,
  isSearchablePath,
  MAX_SEARCH_DOCUMENT_BYTES,
  SCAFFOLD_MARKER,
  type SkipReason,
} from './document-filter.js';
export * from './engine.js';
export { type JsonLeaf, scanJsonLeaves } from './json-fields.js';
export { FILENAME_MATCH_TEXT } from './ranked.js';
export { RANKING } from './scoring.js';
export { DEFAULT_SEARCH_LIMIT, DEFAULT_SEARCH_SNIPPETS } from './search-options.js';
export { type SearchStoreOptions, searchableLength, searchStore } from './search-store.js';
export { SNIPPET_MAX_CHARS } from './snippets.js';
export {
  LEXICAL_ANALYZER_VERSION,
  MIN_STEM_NEEDLE_LENGTH,
  sharesStem,
  stemNeedle,
  stemWord,
  type TermStem,
  termStem,
} from './stemming.js';
export { tokenizeQuery } from './tokenizer.js';
export * from './types.js';
