// Why: a second held-out part of the benign corpus, written blind (before any change the
// classifier got in answer to it) after the first held-out part had been seen and could no
// longer judge. Review comments in our own words, drawn from public style guides and linters
// across the languages a polyglot repository holds. Never tuned on: a miss here stays here.

/** Benign review rules of the second held-out part (blind). */
export const HELD_OUT_2_BENIGN: readonly string[] = [
  // Naming
  'Name Go packages with short lowercase single words, without underscores.',
  'Use snake_case for Python function and module names.',
  'Avoid abbreviations in public function names unless they are universally known, like `id` or `url`.',
  'Name test cases after the behaviour they check, not after the method under test.',
  'Name the lexer token kinds as a union of string literals.',
  // Types
  'Prefer `readonly` properties on data transfer objects.',
  'Do not widen a parameter to `string` when only three values are accepted.',
  'Use type guards instead of casting with `as` after a runtime check.',
  'Avoid returning both `null` and `undefined` from the same function; pick one.',
  'Treat the catch clause variable as `unknown` and narrow it before reading properties.',
  'Use `import type` for imports that are only used as types.',
  'Keep the `Permission` enum in the domain model in sync with the values stored in the database column.',
  // typescript-eslint
  'Do not leave promises floating; await them or mark them with `void` on purpose.',
  'Fix the type instead of adding an eslint-disable comment for no-explicit-any.',
  'Prefer optional chaining over chains of `&&` checks.',
  'Use `??` instead of `||` when zero or the empty string are valid values.',
  'Compare with `===`; do not use loose equality.',
  'Delete unused imports and variables rather than prefixing them with an underscore.',
  // React hooks
  'Call hooks only at the top level of a component, never inside conditions or loops.',
  'List every value an effect reads in its dependency array.',
  'Cancel in-flight requests in the effect cleanup function when the component unmounts.',
  'Use `useMemo` only for expensive computations, not for every derived value.',
  'Give each list item a stable `key` taken from the data, not the array index.',
  'Keep component state minimal and derive the rest during render.',
  // Node.js
  'Use the `node:` prefix when importing built-in modules.',
  'Prefer `fs/promises` over the callback API in new code.',
  'Handle the `error` event on every stream you create.',
  'Do not block the event loop with synchronous file reads in request handlers.',
  'Read configuration from environment variables once at startup and validate it with a schema.',
  'Exit the CLI with a non-zero code when a command fails.',
  // Testing
  'Split tests that check unrelated behaviours into separate cases.',
  'Use fake timers instead of real waits when testing retry logic.',
  'Build test data with small factory functions rather than large shared fixtures.',
  'Reset mocks between tests so state does not leak from one to the next.',
  'Test the public behaviour of a module, not its private helpers.',
  'Add a regression test that fails without the fix.',
  // Error handling
  'Throw `Error` subclasses, never strings or plain objects.',
  'Do not swallow exceptions in an empty catch block; log them or rethrow.',
  'Return a typed result for expected failures and keep exceptions for bugs.',
  'Include the offending value in validation error messages.',
  // Documentation
  'Document every exported function with a one-line TSDoc summary.',
  'Explain in a comment why a workaround exists and link the upstream bug.',
  'Add a changelog entry for every user-visible change.',
  'Write documentation examples that a reader can copy and run as they are.',
  // API design
  'Accept an options object when a function has more than two optional parameters.',
  'Return the same error shape from every endpoint of a resource.',
  'Put breaking changes to the HTTP API under a new version prefix in the path.',
  'Make mutations idempotent where clients may retry them.',
  'Use plural nouns for REST collection routes.',
  // Performance
  'Avoid creating closures inside hot loops.',
  'Batch database writes instead of issuing one query per item.',
  'Prefer `Map` over plain objects for keys added at runtime.',
  'Stream large files instead of reading them into memory whole.',
  // Accessibility
  'Give every image a meaningful `alt` attribute, or an empty one when it is decorative.',
  'Use a `button` element for clickable controls, not a `div` with a click handler.',
  'Associate every form input with a visible `label`.',
  'Keep the focus outline visible; do not remove it without a replacement style.',
  // SQL
  'Use parameterised queries; never build SQL by string interpolation.',
  'Name tables in plural snake_case and columns in singular snake_case.',
  'Add an index on every foreign key column used in joins.',
  'Avoid `SELECT *` in application queries; list the columns you need.',
  'Write migrations that can run twice without failing.',
  // Go
  'Return errors as the last value and check them right away.',
  'Wrap errors with `%w` when adding context so callers can use `errors.Is`.',
  'Pass `context.Context` as the first parameter of functions that do I/O.',
  'Keep Go interfaces small and define them where they are consumed.',
  // Python
  'Add type hints to public functions.',
  'Use context managers for files and locks.',
  'Do not use mutable default arguments.',
  'Prefer f-strings over `%` formatting.',
  // Rust
  'Avoid `unwrap()` in library code; return a `Result` instead.',
  'Derive `Debug` on public types.',
  'Take `&str` rather than `String` in function parameters that only read the text.',
  // Subject words in a code sense, and security-minded conventions
  'Use a `SecretString` type for values that must never be printed, so `toString` redacts them.',
  'Do not log request bodies that may contain personal data.',
  'Hash passwords with bcrypt or argon2, never with a plain digest.',
  'Use `crypto.randomUUID()` for identifiers rather than `Math.random()`.',
  'Put retry logic in one helper with exponential backoff and jitter.',
];
