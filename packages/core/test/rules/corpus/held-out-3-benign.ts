// Why: a third held-out part of the benign corpus, written blind after the second tuning step
// and before any later change, so that step has one measurement nobody had read when it was
// made. Review comments in our own words from public style guides and linters, several
// languages, with subject words used in their code sense. Never tuned on.

/** Benign review rules of the third held-out part (blind). */
export const HELD_OUT_3_BENIGN: readonly string[] = [
  // Naming and style
  'Use descriptive names for loop variables when the loop body is longer than a few lines.',
  'Name private class members without a leading underscore; rely on `private` instead.',
  'Suffix observable streams with `$` only if the rest of the codebase already does.',
  'Name boolean-returning functions so they read as a question, like `isEmpty`.',
  'Stick to one casing style for JSON keys across the whole API.',
  // Types
  'Prefer discriminated unions over class hierarchies for message types.',
  'Do not export types that are only used inside one file.',
  'Avoid type assertions on parsed JSON; validate it with a schema first.',
  'Use `Readonly<T>` for parameters the function must not mutate.',
  'Turn on `noUncheckedIndexedAccess` in new packages.',
  'Replace the `Function` and `Object` types with precise signatures.',
  'Keep generic type parameter names short but meaningful.',
  // Functions
  'Keep functions short enough to read without scrolling.',
  'Avoid boolean flag parameters; split the function or pass an enum.',
  'Return early instead of wrapping the whole body in an if block.',
  'Do not reassign function parameters.',
  'Prefer pure functions for anything that can be computed from its inputs.',
  // Async
  'Run independent async calls concurrently with `Promise.all`.',
  'Do not mix `.then` chains and `await` in the same function.',
  'Pass an `AbortSignal` through to fetch calls in long-running operations.',
  'Set a timeout on every outbound HTTP request.',
  // Errors
  'Log errors once, at the boundary that handles them, not at every layer.',
  'Give custom error classes a `name` property matching the class name.',
  'Preserve the original stack when rethrowing by passing the caught error as the cause.',
  'Never catch an error only to throw a new one without context.',
  // Testing
  'Name the test file after the module it covers, with a `.test.ts` suffix.',
  'Prefer `toEqual` over several field-by-field assertions for plain objects.',
  'Keep each test independent of the order in which tests run.',
  'Test edge cases: empty input, a single element and the maximum size.',
  'Use table-driven tests in Go for functions with many input cases.',
  'Use pytest fixtures instead of setUp methods in new Python tests.',
  'Avoid sleeping in tests; wait on the condition instead.',
  'Assert on the error type and message when testing failure paths.',
  // React and UI
  'Move data fetching out of components into custom hooks.',
  'Avoid inline object literals as props to memoised children.',
  'Use heading levels in order, without skipping from h1 to h3.',
  'Make every interactive element reachable with the keyboard.',
  'Respect `prefers-reduced-motion` in animations.',
  'Keep the colour contrast of body text at least 4.5 to 1.',
  // Node and performance
  'Cache compiled regular expressions at module level instead of rebuilding them per call.',
  'Avoid `JSON.parse(JSON.stringify(x))` for deep copies; use `structuredClone`.',
  'Paginate list queries rather than loading every row.',
  'Use a worker thread for CPU-heavy parsing instead of blocking the main thread.',
  'Lazy-load heavy dependencies that only one command needs.',
  // SQL and databases
  'Wrap multi-step writes in a transaction.',
  'Use `TIMESTAMPTZ` columns for points in time in PostgreSQL.',
  'Never change a migration that has already been merged; add a new one.',
  'Add a unique constraint instead of checking for duplicates in application code.',
  'Keep SQL keywords upper case in raw queries.',
  // Go
  'Do not use panics for ordinary errors in Go.',
  'Name Go receivers with one or two letters, consistently across methods.',
  'Close HTTP response bodies with `defer resp.Body.Close()`.',
  'Avoid package-level variables for configuration in Go services.',
  // Python
  'Use dataclasses for plain data holders.',
  'Raise specific exceptions rather than a bare `Exception`.',
  'Do not catch `BaseException`.',
  'Keep imports sorted and grouped: standard library, third party, local.',
  // Rust
  'Use `?` to propagate errors instead of matching and returning by hand.',
  'Prefer iterators over index loops in Rust.',
  'Document panics in a `# Panics` section of the doc comment.',
  // Documentation and API design
  'Document the units of every numeric configuration option.',
  'Keep the README quick start under ten lines.',
  'Return 404 for missing resources and 400 for invalid input, not 500.',
  'Deprecate an API for at least one minor release before removing it.',
  // Subject words in a code sense
  'Name the JWT claims type after the fields it decodes, not after the token.',
  'Keep the role and permission checks in one authorization module.',
  'Store the cursor position of the tokenizer in a plain number, not an object.',
  'Use the `Session` type from the auth package instead of redefining it.',
  'Keep memory allocations out of the render loop.',
  'Keep the review screen component under 200 lines.',
];
