// Why: the public entry point of @repomem/core; everything exported here is documented API.

export * from './citations/index.js';
export * from './envelope/index.js';
export * from './errors.js';
export * from './kit/index.js';
export * from './markdown/index.js';
export * from './memory/index.js';
export * from './moments/index.js';
export * from './policy/index.js';
export * from './promotion/index.js';
export * from './prompt/index.js';
export * from './registry/index.js';
export * from './retrieval/index.js';
export * from './scope/index.js';
export * from './search/index.js';
export * from './store/index.js';
export * from './tasks/index.js';
export * from './transfer/index.js';
export * from './verified/index.js';
