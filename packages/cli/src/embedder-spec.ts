// Why: every command that can rank semantically learns whether an embedder is configured from
// `--embedder` or `$REPOMEM_EMBEDDER` before loading anything: with neither, no embedder code,
// model or SDK is loaded and search stays lexical and as fast as before. Opening the embedder
// (core's registry, which loads the provider package) lives in open-embedder.ts, imported only
// when a spec is set.

/** The embedder spec of a command: `--embedder`, else `$REPOMEM_EMBEDDER`; `none` or empty means none. */
export function embedderSpecOf(
  option: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const value = (option ?? env.REPOMEM_EMBEDDER ?? '').trim();
  return value === '' || value.toLowerCase() === 'none' ? undefined : value;
}
