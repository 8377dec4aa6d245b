// Why: barrel of the policy module (public API re-exports).
export * from './commit-gate.js';
export * from './fork-safety.js';
export * from './memory-policy.js';
export {
  MEMORY_SCAN_STATE_REF,
  MEMORY_STATE_SCHEMA_VERSION,
  MEMORY_SYNC_STATE_REF,
  parseScanState,
  parseSyncState,
  type ScanState,
  ScanStateSchema,
  type StateParse,
  type StateRejection,
  type SyncState,
  SyncStateSchema,
} from './memory-state.js';
export * from './scan-gate.js';
export * from './schedule-policy.js';
