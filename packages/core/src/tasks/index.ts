// Why: barrel of the task-memory module (public API re-exports).
export * from './record-backend.js';
