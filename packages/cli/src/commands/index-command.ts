// Why: `repomem index` builds or refreshes the vectors kept with the memory (under
// `.repomem/vectors/<embedder>/` in the chosen store): only chunks whose text has no vector yet
// are embedded, so a run after an edit costs that edit and a fresh CI runner that fetched the
// memory embeds nothing. Arguments and `--help` load nothing else; the store, core's semantic
// index and the embedder's package load when the command runs.
import { embedderSpecOf } from '../embedder-spec.js';
import { commandRunner } from '../tree/command-runner.js';
import { INDEX } from '../tree/decl/index-command.js';
import type { CommandRunner } from '../tree/types.js';

/** The embedder `repomem index` uses when neither `--embedder` nor `$REPOMEM_EMBEDDER` names one. */
export const DEFAULT_INDEX_EMBEDDER = 'local';

/** A bar like `[########------------] 120/300 chunks` for a terminal line. */
export function formatIndexProgress(done: number, total: number, width = 24): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} chunks`;
}

/** Run `repomem index`; returns the exit code. */
export const runIndexCommand: CommandRunner = commandRunner(INDEX, async ({ options }, io) => {
  const spec = embedderSpecOf(options.embedder, io.env) ?? DEFAULT_INDEX_EMBEDDER;
  const { runIndex } = await import('./index-run.js');
  return await runIndex({ store: options.store, dir: options.dir, repo: options.repo, spec, json: options.json }, io);
});
