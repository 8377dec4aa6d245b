// Why: the CLI opens embedders through core's registry like library users do; a provider that is
// not installed becomes an exit-code-2 error naming the package to install beside the CLI.
import { type Embedder, openEmbedder, RepomemError } from '@repomem/core';
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
