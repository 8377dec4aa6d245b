// Why: every store refuses calls after `close()` with the same error code and wording.
import { RepomemError } from '../errors.js';

/** The `STORE_CLOSED` error thrown by a store named `name` after `close()`. */
export function storeClosedError(name: string): RepomemError {
  return new RepomemError('STORE_CLOSED', `the ${name} store is closed`);
}

/** Default `maxDocumentBytes` of the reference stores: 16 MiB. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
