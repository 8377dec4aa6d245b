// Why: barrel of the branch-scope module (public API re-exports).
export * from './branch-history.js';
export * from './branch-scope.js';
export * from './commit-set.js';
export * from './resolve-scope.js';
export * from './scoped-list.js';
