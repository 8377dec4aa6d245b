// Why: barrel of the markdown module (public API re-exports).
export {};
