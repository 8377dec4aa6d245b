// Why: the public entry point of @repomem/github; everything exported here is documented API.

export * from './citations/index.js';
export * from './mirror/index.js';
export * from './webhooks/index.js';
