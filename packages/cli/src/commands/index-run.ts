// Why: the work of `repomem index` once its arguments are valid: open the chosen store writable
// and the embedder, refresh the semantic index, print what was embedded, reused and removed.
import { createSemanticIndex } from '@repomem/core';
import { ExitCode } from '../errors.js';
import type { CliIo } from '../io.js';
import { openChosenStore } from '../open-chosen-store.js';
import { openCliEmbedder } from '../open-embedder.js';
import { chooseStore, documentRepoFor } from '../store-selection.js';
import { formatIndexProgress } from './index-command.js';

/** A parsed `repomem index` request. */
export interface IndexRequest {
  readonly store: string | undefined;
  readonly dir: string | undefined;
  readonly repo: string | undefined;
  readonly spec: string;
  readonly json: boolean;
}

/** Run a parsed `repomem index` request; throws on failure (the command reports it). */
export async function runIndex(request: IndexRequest, io: CliIo): Promise<number> {
  const chosen = await chooseStore(request, io);
  const embedder = await openCliEmbedder(request.spec, io);
  const store = await openChosenStore(chosen, {
    repo: documentRepoFor(chosen, request.repo, io),
    readOnly: false,
  });
  const showProgress = !request.json && process.stderr.isTTY === true && io.env.CI === undefined;
  const controller = new AbortController();
  const stop = (): void => controller.abort(new Error('interrupted: the vectors embedded so far are kept'));
  process.once('SIGINT', stop);
  const started = performance.now();
  try {
    const index = createSemanticIndex({ store, embedder });
    let lastDraw = 0;
    const result = await index.refresh({
      signal: controller.signal,
      ...(showProgress
        ? {
            onProgress: (done: number, total: number) => {
              const now = performance.now();
              if (total === 0 || (done < total && now - lastDraw < 100)) return;
              lastDraw = now;
              io.stderr.write(formatIndexProgress(done, total));
              if (done === total) io.stderr.write('\n');
            },
          }
        : {}),
    });
    const status = await index.status();
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    if (request.json) {
      io.stdout.write(
        `${JSON.stringify({ ok: true, store: chosen.label, embedder: embedder.id, dimensions: embedder.dimensions, ...result, chunks: status.chunks, missing: status.missing, seconds })}\n`,
      );
    } else {
      io.stdout.write(
        `Indexed ${chosen.label} with ${embedder.id}: ${result.embedded} chunks embedded, ${result.reused} reused, ${result.removed} removed (${status.chunks} chunks, ${seconds} s)\n`,
      );
    }
    return ExitCode.ok;
  } finally {
    process.removeListener('SIGINT', stop);
    await store.close();
  }
}
