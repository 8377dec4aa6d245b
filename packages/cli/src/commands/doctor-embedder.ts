// Why: `repomem doctor` says which embedder the other commands would use and how much of the
// memory lacks vectors, so a user knows whether hybrid search is on and what `repomem index`
// still has to do. Loaded only when an embedder is configured.
import { createSemanticIndex, type StoreDiagnostic } from '@repomem/core';
import type { CliIo } from '../io.js';
import { openChosenStore } from '../open-chosen-store.js';
import { openCliEmbedder } from '../open-embedder.js';
import type { ChosenStore } from '../store-selection.js';

/** The doctor's embedder line for a configured `spec` on the chosen store. */
export async function diagnoseEmbedder(
  spec: string,
  chosen: ChosenStore,
  repo: string,
  io: CliIo,
): Promise<StoreDiagnostic> {
  let embedder: Awaited<ReturnType<typeof openCliEmbedder>>;
  try {
    embedder = await openCliEmbedder(spec, io);
  } catch (error) {
    return {
      check: 'embedder',
      status: 'failed',
      detail: `${spec}: ${error instanceof Error ? error.message : String(error)}`,
      fix: 'install the embedder package beside repomem, or fix --embedder / REPOMEM_EMBEDDER',
    };
  }
  try {
    const store = await openChosenStore(chosen, { repo, readOnly: true });
    try {
      const status = await createSemanticIndex({ store, embedder }).status();
      const detail = `${status.embedderId} (${status.dimensions} dimensions): ${status.chunks} chunks, ${status.missing} without vectors`;
      return status.missing === 0
        ? { check: 'embedder', status: 'ok', detail }
        : { check: 'embedder', status: 'warning', detail, fix: `repomem index --embedder ${spec}` };
    } finally {
      await store.close();
    }
  } catch (error) {
    return {
      check: 'embedder',
      status: 'warning',
      detail: `${embedder.id}: vectors could not be counted (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}
