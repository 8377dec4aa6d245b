// Why: barrel of the forensic moments service (public API re-exports).
export * from './forensic-moments.js';
