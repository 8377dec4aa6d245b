// Why: a malformed batch must be refused BEFORE the transaction starts, with the same codes and
// rules as core's reference stores (bad path, the same path twice, content that is not bytes, a
// document above the size limit), so a refused batch never touches the database. Core keeps its
// validator internal, so the rules are restated here and the conformance suite holds both to them.
import {
  contentVersion,
  type ExpectedVersion,
  normalizeDocumentPath,
  RepomemError,
  type WriteOperation,
} from '@repomem/core';

/** A validated `put`: normalised path, a private copy of the bytes, and their version. */
export interface PreparedPut {
  readonly kind: 'put';
  readonly path: string;
  readonly content: Uint8Array;
  readonly version: string;
  readonly expectedVersion: ExpectedVersion;
}

/** A validated `delete` with its normalised path. */
export interface PreparedDelete {
  readonly kind: 'delete';
  readonly path: string;
  readonly expectedVersion: ExpectedVersion;
}

/** One validated operation of a batch. */
export type PreparedOperation = PreparedPut | PreparedDelete;

function describeOperation(index: number, path: unknown): string {
  return typeof path === 'string' ? `operation ${index} (${path})` : `operation ${index}`;
}

/**
 * Validate a batch and normalise its paths. Throws, before anything is written:
 * `INVALID_ARGUMENT` (not an array, not an object, unknown kind, content not a `Uint8Array`, bad
 * `expectedVersion`, the same path twice), `INVALID_PATH`, `FILE_TOO_LARGE`.
 */
export function prepareWriteBatch(
  operations: readonly WriteOperation[],
  maxDocumentBytes: number,
): PreparedOperation[] {
  if (!Array.isArray(operations)) {
    throw new RepomemError('INVALID_ARGUMENT', 'write() expects an array of operations');
  }
  const seen = new Set<string>();
  const prepared: PreparedOperation[] = [];
  operations.forEach((operation: WriteOperation, index) => {
    if (operation === null || typeof operation !== 'object') {
      throw new RepomemError('INVALID_ARGUMENT', `operation ${index} is not an object`);
    }
    const { kind, expectedVersion } = operation;
    if (kind !== 'put' && kind !== 'delete') {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `${describeOperation(index, (operation as { path?: unknown }).path)} has unknown kind ${JSON.stringify(kind)} (expected "put" or "delete")`,
      );
    }
    const path = normalizeDocumentPath(operation.path);
    if (seen.has(path)) {
      throw new RepomemError('INVALID_ARGUMENT', `path appears twice in one write batch: ${path}`, {
        details: { path },
      });
    }
    seen.add(path);
    if (expectedVersion !== undefined && expectedVersion !== null && typeof expectedVersion !== 'string') {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `${describeOperation(index, path)}: expectedVersion must be a string, null or undefined`,
        { details: { path } },
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
    prepared.push({ kind, path, content: copy, version: contentVersion(copy), expectedVersion });
  });
  return prepared;
}

/** True when `actual` (`null` = absent) satisfies `expected` (`undefined` = no check). */
export function expectationHolds(expected: ExpectedVersion, actual: string | null): boolean {
  return expected === undefined || expected === actual;
}
