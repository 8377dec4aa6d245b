// Why: the simplest citation source is the working tree itself (a checkout, a test fixture, the
// CLI run inside a repository). It reads files without following symbolic links out of the
// root, and identifies content the way git does, so a citation's blob id matches the git reader's.
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import {
  type CitationLocation,
  type CitationReader,
  type CitationSource,
  normalizeDocumentPath,
  RepomemError,
} from '@repomem/core';

/** Default largest file a reader decodes (1 MiB); bigger files are `too_large`. */
export const DEFAULT_CITATION_MAX_BYTES = 1024 * 1024;

/** The `revision` the directory reader reports: the files as they are on disk now. */
export const WORKTREE_REVISION = 'worktree';

/** Options of {@link createDirectoryCitationReader}. */
export interface DirectoryCitationReaderOptions {
  /** Root of the working tree; citation paths are relative to it. */
  readonly root: string;
  /** Largest file read, in bytes (default {@link DEFAULT_CITATION_MAX_BYTES}). */
  readonly maxBytes?: number;
}

/** Git's blob id of `bytes`: SHA-1 of `blob <length>\0` followed by the bytes. */
export function gitBlobSha(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

/** True when `bytes` contain a NUL byte or are not valid UTF-8. */
export function isBinaryContent(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** Errors meaning "there is no regular file there". */
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EISDIR']);

/**
 * A {@link CitationReader} over a directory on disk (revision {@link WORKTREE_REVISION}).
 *
 * - `repo` is ignored (the reader is bound to one tree); a `ref` is refused with `INVALID_ARGUMENT`
 *   (a working tree has no other revisions: use the git reader);
 * - paths are checked with `normalizeDocumentPath` (no `..`, no absolute path: `INVALID_PATH`);
 * - a path that resolves outside the root through a symbolic link reads as `missing` (it is not
 *   part of the repository), and its target is never read; links inside the root are followed;
 * - a directory or any other non-regular file is `missing`; a file over `maxBytes` is
 *   `too_large`; NUL bytes or invalid UTF-8 make it `binary`;
 * - `blobSha` is the git blob id of the bytes, so it equals what `git hash-object` prints.
 */
export function createDirectoryCitationReader(options: DirectoryCitationReaderOptions): CitationReader {
  if (options === null || typeof options !== 'object' || typeof options.root !== 'string' || options.root === '') {
    throw new RepomemError('INVALID_ARGUMENT', 'createDirectoryCitationReader expects { root: string }');
  }
  const maxBytes = options.maxBytes ?? DEFAULT_CITATION_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) {
    throw new RepomemError('INVALID_ARGUMENT', `maxBytes must be a positive integer, got ${String(maxBytes)}`);
  }
  const requestedRoot = resolve(options.root);
  let realRoot: Promise<string> | undefined;
  const rootPath = (): Promise<string> => {
    realRoot ??= realpath(requestedRoot).catch((error: unknown) => {
      realRoot = undefined;
      throw new RepomemError('NOT_FOUND', `citation root does not exist or is unreadable: ${requestedRoot}`, {
        cause: error,
        details: { root: requestedRoot },
      });
    });
    return realRoot;
  };

  async function read(location: CitationLocation): Promise<CitationSource> {
    if (location.ref !== undefined) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `the directory citation reader reads the working tree only; ref ${JSON.stringify(location.ref)} is not supported (use the git reader)`,
        { details: { ref: location.ref } },
      );
    }
    const path = normalizeDocumentPath(location.path);
    const root = await rootPath();
    let real: string;
    try {
      real = await realpath(resolve(root, ...path.split('/')));
    } catch (error) {
      if (ABSENT.has(errnoCode(error) ?? '')) return { kind: 'missing', revision: WORKTREE_REVISION };
      throw error;
    }
    if (real !== root && !real.startsWith(root.endsWith(sep) ? root : root + sep)) {
      return { kind: 'missing', revision: WORKTREE_REVISION };
    }
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (error) {
      if (ABSENT.has(errnoCode(error) ?? '')) return { kind: 'missing', revision: WORKTREE_REVISION };
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return { kind: 'missing', revision: WORKTREE_REVISION };
      if (stats.size > maxBytes) return { kind: 'too_large', revision: WORKTREE_REVISION, bytes: stats.size };
      const bytes = new Uint8Array(await handle.readFile());
      if (bytes.byteLength > maxBytes) {
        return { kind: 'too_large', revision: WORKTREE_REVISION, bytes: bytes.byteLength };
      }
      if (isBinaryContent(bytes)) return { kind: 'binary', revision: WORKTREE_REVISION };
      return {
        kind: 'text',
        text: new TextDecoder('utf-8').decode(bytes),
        blobSha: gitBlobSha(bytes),
        revision: WORKTREE_REVISION,
      };
    } finally {
      await handle.close();
    }
  }

  return { name: 'directory', read };
}
