// Why: barrel of the policy module (public API re-exports).
export * from './memory-policy.js';
