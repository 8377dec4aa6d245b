// Why: a sync rewrites whole pages of items, most of them unchanged. Writing only the files whose
// bytes differ, in one batch per page guarded by each file's expected version, means an unchanged
// item costs a read and no write (and no commit on the git store), and a concurrent edit of a
// mirror file is detected instead of overwritten blindly.
import { type MemoryStore, RepomemError, type WriteOperation } from '@repomem/core';

/** One mirror file to write. */
export interface MirrorFile {
  readonly path: string;
  readonly content: Uint8Array;
}

/** What a batch changed. */
export interface MirrorWriteOutcome {
  /** Paths written (created or changed), sorted. */
  readonly changed: readonly string[];
  /** Files whose stored bytes already matched. */
  readonly unchanged: number;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let index = 0; index < a.byteLength; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * Write the files of one page: only those whose bytes differ, as one batch (one commit on the git
 * store). A conflicting concurrent write is read again and the batch retried a few times.
 */
export async function writeMirrorFiles(
  store: MemoryStore,
  files: readonly MirrorFile[],
  message: string,
): Promise<MirrorWriteOutcome> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const current = await Promise.all(files.map((file) => store.get(file.path)));
    const operations: WriteOperation[] = [];
    files.forEach((file, index) => {
      const stored = current[index];
      if (stored !== undefined && sameBytes(stored.content, file.content)) return;
      operations.push({
        kind: 'put',
        path: file.path,
        content: file.content,
        expectedVersion: stored?.version ?? null,
      });
    });
    const unchanged = files.length - operations.length;
    if (operations.length === 0) return { changed: [], unchanged };
    const result = await store.write(operations, { message });
    if (result.status === 'committed') {
      return { changed: operations.map((operation) => operation.path).sort(), unchanged };
    }
  }
  throw new RepomemError('CONFLICT', 'mirror files kept changing while this sync wrote them');
}
