// Why: barrel of the envelope module (public API re-exports).
export {};
