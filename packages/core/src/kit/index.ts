// Why: barrel of the store kit (driver contract, createStore, the in-memory driver).
export { checkDriver } from './check-driver.js';
export * from './driver.js';
