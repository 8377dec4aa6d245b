// Why: the public entry point of @repomem/langgraph; everything exported here is documented API.
export { matchesFilter } from './filter.js';
export { type ItemDocument, ItemDocumentSchema } from './item-document.js';
export { DEFAULT_ITEMS_FOLDER, decodeSegment, encodeSegment, ITEM_SUFFIX, itemPath, parseItemPath } from './paths.js';
export type { SemanticSearch } from './search.js';
export { type OpenRepomemStoreOptions, RepomemStore, type RepomemStoreOptions } from './store.js';
