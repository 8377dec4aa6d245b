// Why: barrel of the verified-memory module (public API re-exports).
export * from './backend.js';
export * from './document-backend.js';
export * from './record.js';
export * from './service.js';
export * from './service-types.js';
