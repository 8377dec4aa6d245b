// Why: documents move between stores, and a directory store or a checkout of the git branch must
// be able to hold every document: a file name over 255 bytes fails there with a raw ENAMETOOLONG.
// Every store refuses such a path up front with INVALID_PATH, whatever its own backend allows.
import { RepomemError } from '../errors.js';

/** Longest name of one path segment, in UTF-8 bytes (ext4, APFS, NTFS and most others: 255). */
export const MAX_PATH_SEGMENT_BYTES = 255;

/** Longest document path, in UTF-8 bytes (leaves room under PATH_MAX for the memory directory). */
export const MAX_DOCUMENT_PATH_BYTES = 1024;

const encoder = new TextEncoder();

/** Throw `INVALID_PATH` when a normalised document path has a segment or a length no file system holds. */
export function assertPathLength(path: string): void {
  const total = encoder.encode(path).byteLength;
  if (total > MAX_DOCUMENT_PATH_BYTES) {
    throw new RepomemError(
      'INVALID_PATH',
      `path is too long: ${total} bytes, at most ${MAX_DOCUMENT_PATH_BYTES} (${path.slice(0, 60)}...)`,
      { details: { path } },
    );
  }
  for (const segment of path.split('/')) {
    const bytes = encoder.encode(segment).byteLength;
    if (bytes > MAX_PATH_SEGMENT_BYTES) {
      throw new RepomemError(
        'INVALID_PATH',
        `path has a name of ${bytes} bytes, at most ${MAX_PATH_SEGMENT_BYTES} fit a file system (${segment.slice(0, 40)}...)`,
        { details: { path } },
      );
    }
  }
}
