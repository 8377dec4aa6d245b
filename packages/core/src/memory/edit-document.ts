// Why: every bullet edit is read -> pure operation -> write guarded by the version that was read.
// When another writer got there first the store reports a conflict and the operation is re-run on
// the fresh text, so concurrent updates are serialised and none is ever lost.
import { RepomemError } from '../errors.js';
import type { BulletEditResult } from '../markdown/operations.js';
import type { MemoryStore, WriteMetadata } from '../store/contract.js';
import type { UpdateOutcome } from './outcomes.js';
import { decodeMemoryText, encodeMemoryText } from './text-codec.js';

/** How {@link editDocument} writes and retries. */
export interface EditDocumentOptions {
  /** Re-runs allowed after a conflict before giving up with `CONFLICT`. */
  readonly maxConflictRetries: number;
  /** Metadata for the write, given the outcome that is about to be written. */
  readonly metadata: (outcome: UpdateOutcome) => WriteMetadata;
}

/**
 * Apply `operation` to the current text of `path` (`undefined` when absent) and write the result
 * with optimistic concurrency, re-running it on fresh text after each conflict.
 * Throws `BINARY_FILE` for a non-text document, `FILE_TOO_LARGE` when the result exceeds the
 * store's limit, and `CONFLICT` after `maxConflictRetries` lost races.
 */
export async function editDocument(
  store: MemoryStore,
  path: string,
  operation: (source: string | undefined) => BulletEditResult,
  options: EditDocumentOptions,
): Promise<UpdateOutcome> {
  for (let attempt = 0; ; attempt += 1) {
    const current = await store.get(path);
    const source = current === undefined ? undefined : decodeMemoryText(current.content, path);
    const { outcome, text } = operation(source);
    if (text === undefined) return outcome;
    const content = encodeMemoryText(text);
    if (content.byteLength > store.capabilities.maxDocumentBytes) {
      throw new RepomemError(
        'FILE_TOO_LARGE',
        `${path} would grow to ${content.byteLength} bytes, over the store's limit of ${store.capabilities.maxDocumentBytes}`,
        { details: { path, size: content.byteLength, limit: store.capabilities.maxDocumentBytes } },
      );
    }
    const result = await store.write(
      [{ kind: 'put', path, content, expectedVersion: current?.version ?? null }],
      options.metadata(outcome),
    );
    if (result.status === 'committed') return outcome;
    if (attempt >= options.maxConflictRetries) {
      throw new RepomemError(
        'CONFLICT',
        `${path} kept changing under concurrent writers; gave up after ${attempt + 1} attempts`,
        { details: { path, attempts: attempt + 1, conflicts: result.conflicts } },
      );
    }
    await conflictBackoff(attempt);
  }
}

/** Small randomised pause before a re-run, growing with the attempt (at most ~20 ms). */
export function conflictBackoff(attempt: number): Promise<void> {
  const ceiling = Math.min(20, 2 ** Math.min(attempt, 5));
  const delay = Math.random() * ceiling;
  return new Promise((resolve) => setTimeout(resolve, delay));
}
