// Why: the store flags every store-using command accepts are declared apart from the store
// choice itself, so parsing arguments (and `--help`) loads no store code.

/** The options every store-using command accepts besides Sepo's `--dir`. */
export const STORE_OPTIONS = {
  store: { type: 'string' },
  repo: { type: 'string' },
} as const;
