// Why: barrel of the prompt module (public API re-exports).
export {};
