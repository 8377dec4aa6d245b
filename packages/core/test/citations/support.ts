// Why: the citation and verified-memory tests need code to cite. Core has no file reader of its
// own (the working-tree reader lives in @repomem/store-fs), so these tests cite files held in a
// map they edit, served by a small reader that reports what a real one does (text with git's
// blob id, missing, too large, binary, a ref refused).
import { createHash } from 'node:crypto';
import type { CitationLocation, CitationReader, CitationSource } from '../../src/citations/index.js';
import { RepomemError } from '../../src/errors.js';
import { normalizeDocumentPath } from '../../src/store/paths.js';

/** The revision the map reader reports, like a working tree's. */
export const MAP_REVISION = 'worktree';

/** A citation reader over files the test can change between reads. */
export interface MapCitationReader extends CitationReader {
  /** The files, by normalised path (text or bytes). */
  readonly files: Map<string, string | Uint8Array>;
}

function isBinary(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/**
 * A reader over `files`: a ref is refused with `INVALID_ARGUMENT` (one revision only), a bad
 * path is `INVALID_PATH`, an absent file is `missing`, a file over `maxBytes` (default 1 MiB) is
 * `too_large`, NUL bytes or invalid UTF-8 are `binary`.
 */
export function createMapCitationReader(
  files: Readonly<Record<string, string | Uint8Array>> = {},
  options: { readonly maxBytes?: number } = {},
): MapCitationReader {
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const map = new Map(Object.entries(files));
  return {
    name: 'map',
    files: map,
    async read(location: CitationLocation): Promise<CitationSource> {
      if (location.ref !== undefined) {
        throw new RepomemError('INVALID_ARGUMENT', `the map reader has one revision; ref ${location.ref} refused`);
      }
      const content = map.get(normalizeDocumentPath(location.path));
      if (content === undefined) return { kind: 'missing', revision: MAP_REVISION };
      const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
      if (bytes.byteLength > maxBytes) return { kind: 'too_large', revision: MAP_REVISION, bytes: bytes.byteLength };
      if (isBinary(bytes)) return { kind: 'binary', revision: MAP_REVISION };
      const blobSha = createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
      return { kind: 'text', text: new TextDecoder().decode(bytes), blobSha, revision: MAP_REVISION };
    },
  };
}

/** `count` numbered lines `line 1` ... `line N`, newline-terminated. */
export function numberedLines(count: number, prefix = 'line'): string {
  return Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}\n`).join('');
}
