// Why: every store must reject a malformed batch the same way BEFORE touching anything (bad path,
// duplicate path, non-bytes content, oversized document), so a refused batch never leaves a
// partial write. This module validates and normalises a batch once, for all stores.
import { RepomemError } from '../errors.js';
import { contentVersion } from './content-version.js';
import type { ExpectedVersion, WriteOperation } from './contract.js';
import { assertPathLength } from './path-length.js';
import { normalizeDocumentPath } from './paths.js';
import { refuseSecrets } from './secret-scan.js';

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

/** Options of {@link prepareWriteBatch} for stores whose versions or layout differ. */
export interface WriteBatchOptions {
  /** Version of a put's bytes (default {@link contentVersion}, SHA-256); the git store passes the blob id. */
  readonly versionOf?: (content: Uint8Array) => string;
  /**
   * Refuse a batch that puts a path both as a document and as the directory of another put
   * (`a` and `a/b`), for stores whose documents are files in a tree (git). Default false.
   */
  readonly refuseDocumentDirectoryClash?: boolean;
}

/**
 * Validate a write batch and normalise its paths. Throws, before anything is written:
 * `INVALID_ARGUMENT` (not an array, unknown kind, content not a `Uint8Array`, bad
 * `expectedVersion`, the same path twice), `INVALID_PATH` (see `normalizeDocumentPath`; a put's
 * path too long for a file system, see `assertPathLength`),
 * `FILE_TOO_LARGE` (content above `maxDocumentBytes`), `SECRET_DETECTED` (content holding a
 * credential in a well-known format, see `refuseSecrets`), and with `refuseDocumentDirectoryClash` a
 * path put both as a document and as a directory (`INVALID_ARGUMENT`). Content is copied, so a caller mutating
 * its buffer afterwards cannot change what is stored.
 */
export function prepareWriteBatch(
  operations: readonly WriteOperation[],
  maxDocumentBytes: number,
  options: WriteBatchOptions = {},
): PreparedOperation[] {
  if (!Array.isArray(operations)) {
    throw new RepomemError('INVALID_ARGUMENT', 'write() expects an array of operations');
  }
  const versionOf = options.versionOf ?? contentVersion;
  const seen = new Map<string, 'put' | 'delete'>();
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
    if (kind === 'put') assertPathLength(path);
    if (seen.has(path)) {
      throw new RepomemError('INVALID_ARGUMENT', `path appears twice in one write batch: ${path}`, {
        details: { path },
      });
    }
    seen.set(path, kind);
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
    refuseSecrets(path, copy);
    prepared.push({ kind, path, content: copy, version: versionOf(copy), expectedVersion });
  });
  if (options.refuseDocumentDirectoryClash === true) refuseDocumentDirectoryClash(seen);
  return prepared;
}

function refuseDocumentDirectoryClash(seen: ReadonlyMap<string, 'put' | 'delete'>): void {
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
}

/** True when `actual` (`null` = absent) satisfies `expected` (`undefined` = no check). */
export function expectationHolds(expected: ExpectedVersion, actual: string | null): boolean {
  if (expected === undefined) return true;
  return expected === actual;
}
