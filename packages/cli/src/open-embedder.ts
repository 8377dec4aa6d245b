// Why: the CLI opens embedders through core's registry like library users do; a provider that is
// not installed becomes an exit-code-2 error naming the package to install beside the CLI. It is
// also the one module that brings the semantic index and hybrid search into the binary: commands
// import it dynamically, only when an embedder is configured, so a lexical `repomem search` never
// loads them (a dynamic `import('@repomem/core')` would put all of core in the search command's
// chunks: +34% CPU on a cold search).
import {
  createSemanticIndex,
  type Embedder,
  hybridSearch,
  type MemoryStore,
  openEmbedder,
  RepomemError,
  type SemanticIndex,
} from '@repomem/core';
import { CliDataError } from './errors.js';
import type { CliIo } from './io.js';

/** Open the embedder `spec` names (its package loads now; a local model loads on its first embed). */
export async function openCliEmbedder(spec: string, io: Pick<CliIo, 'env'>): Promise<Embedder> {
  try {
    return await openEmbedder(spec, { env: io.env });
  } catch (error) {
    if (error instanceof RepomemError && error.code === 'PACKAGE_MISSING') {
      throw new CliDataError('PACKAGE_MISSING', `${error.message} (beside repomem)`);
    }
    throw error;
  }
}

/** The semantic index over `store` with the embedder `spec` names (vectors kept in that store). */
export async function openCliSemanticIndex(
  spec: string,
  store: MemoryStore,
  io: Pick<CliIo, 'env'>,
): Promise<SemanticIndex> {
  const embedder = await openCliEmbedder(spec, io);
  return createSemanticIndex({ store, embedder });
}

export { hybridSearch };
