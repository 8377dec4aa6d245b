// Why: placeholder; the CLI helper writes the real entry.
export {};
