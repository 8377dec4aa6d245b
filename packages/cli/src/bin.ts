// Why: placeholder.
export {};
