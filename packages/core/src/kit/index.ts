// Why: barrel of the store kit (driver contract, createStore, the in-memory driver).
export { checkDriver } from './check-driver.js';
export * from './create-store.js';
export * from './driver.js';
export { STATE_NAMESPACE } from './kit-state.js';
export { DOCUMENTS_NAMESPACE } from './kit-write.js';
export * from './memory-driver.js';
