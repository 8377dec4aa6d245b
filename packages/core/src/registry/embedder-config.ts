// Why: whether an embedder is configured is asked by every `search` and `context` before anything
// loads. It lives beside the store registry, not in retrieval/: a bundler that splits code by file
// gives every module reachable from a barrel the barrel's importers, so importing this through the
// retrieval barrel put the embedder guard, p-retry and zod into every cold `repomem search`.
import type { SchemeEnvironment } from './scheme.js';

/** The environment variable that names the embedder when no `--embedder` option is given. */
export const EMBEDDER_ENV_VARIABLE = 'REPOMEM_EMBEDDER';

function defaultEnv(): SchemeEnvironment {
  return (globalThis as { process?: { env?: SchemeEnvironment } }).process?.env ?? {};
}

/**
 * The embedder spec configured for a command: the option when given, else `REPOMEM_EMBEDDER`,
 * else `undefined` (lexical retrieval only; no provider is loaded). An empty value or `none`
 * means none.
 */
export function configuredEmbedderSpec(
  option: string | undefined,
  env: SchemeEnvironment = defaultEnv(),
): string | undefined {
  const value = (option ?? env[EMBEDDER_ENV_VARIABLE] ?? '').trim();
  return value === '' || value.toLowerCase() === 'none' ? undefined : value;
}
