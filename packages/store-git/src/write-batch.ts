// Why: a malformed batch must be refused the same way every store refuses it (bad path, the same
// path twice, content that is not bytes, an oversized document) BEFORE anything is written. Core
// keeps its validator internal, so this mirrors it, with the git blob id as each put's version.
import { type ExpectedVersion, normalizeDocumentPath, RepomemError, type WriteOperation } from '@repomem/core';
import { blobVersion } from './object-id.js';

/** A validated put: normalised path, a private copy of the bytes, and their blob id. */
export interface PreparedPut {
  readonly kind: 'put';
  readonly path: string;
  readonly content: Uint8Array;
  readonly version: string;
  readonly expectedVersion: ExpectedVersion;
}

/** A validated delete. */
export interface PreparedDelete {
  readonly kind: 'delete';
  readonly path: string;
  readonly expectedVersion: ExpectedVersion;
}

/** One validated operation. */
export type PreparedOperation = PreparedPut | PreparedDelete;

function label(index: number, path: unknown): string {
  return typeof path === 'string' ? `operation ${index} (${path})` : `operation ${index}`;
}

/**
 * Validate a batch. Throws `INVALID_ARGUMENT` (not an array, unknown kind, non-bytes content, bad
 * expectedVersion, a path twice, a path written both as a document and as a directory),
 * `INVALID_PATH` and `FILE_TOO_LARGE`.
 */
export function prepareWriteBatch(
  operations: readonly WriteOperation[],
  maxDocumentBytes: number,
): PreparedOperation[] {
  if (!Array.isArray(operations)) throw new RepomemError('INVALID_ARGUMENT', 'write() expects an array of operations');
  const prepared: PreparedOperation[] = [];
  const seen = new Map<string, 'put' | 'delete'>();
  operations.forEach((operation: WriteOperation, index) => {
    if (operation === null || typeof operation !== 'object') {
      throw new RepomemError('INVALID_ARGUMENT', `operation ${index} is not an object`);
    }
    const { kind, expectedVersion } = operation;
    if (kind !== 'put' && kind !== 'delete') {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `${label(index, (operation as { path?: unknown }).path)} has unknown kind ${JSON.stringify(kind)} (expected "put" or "delete")`,
      );
    }
    const path = normalizeDocumentPath(operation.path);
    if (seen.has(path)) {
      throw new RepomemError('INVALID_ARGUMENT', `path appears twice in one write batch: ${path}`, {
        details: { path },
      });
    }
    seen.set(path, kind);
    if (expectedVersion !== undefined && expectedVersion !== null && typeof expectedVersion !== 'string') {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `${label(index, path)}: expectedVersion must be a string, null or undefined`,
        {
          details: { path },
        },
      );
    }
    if (kind === 'delete') {
      prepared.push({ kind, path, expectedVersion });
      return;
    }
    const { content } = operation;
    if (!(content instanceof Uint8Array)) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `content of ${path} must be a Uint8Array (bytes), got ${typeof content}`,
        {
          details: { path },
        },
      );
    }
    if (content.byteLength > maxDocumentBytes) {
      throw new RepomemError(
        'FILE_TOO_LARGE',
        `document too large: ${path} is ${content.byteLength} bytes, the store accepts at most ${maxDocumentBytes}`,
        { details: { path, size: content.byteLength, maxDocumentBytes } },
      );
    }
    const copy = new Uint8Array(content);
    prepared.push({ kind, path, content: copy, version: blobVersion(copy), expectedVersion });
  });
  for (const [path, kind] of seen) {
    if (kind !== 'put') continue;
    const segments = path.split('/');
    for (let length = 1; length < segments.length; length += 1) {
      const parent = segments.slice(0, length).join('/');
      if (seen.get(parent) === 'put') {
        throw new RepomemError(
          'INVALID_ARGUMENT',
          `${parent} is written both as a document and as the directory of ${path} in one batch`,
          { details: { path } },
        );
      }
    }
  }
  return prepared;
}

/** True when `actual` (`null` = absent) satisfies `expected` (`undefined` = no check). */
export function expectationHolds(expected: ExpectedVersion, actual: string | null): boolean {
  return expected === undefined || expected === actual;
}
