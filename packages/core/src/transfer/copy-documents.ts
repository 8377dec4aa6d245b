// Why: documents are what a memory tree is, and a migration must move them byte for byte (a
// non-UTF-8 file, a trailing newline). They are copied in batches, each read from both sides and
// written in one guarded write: a new document must still be absent, an overwritten one still at
// the version compared, so a writer working on the target meanwhile is never silently overwritten.
import { RepomemError } from '../errors.js';
import type { MemoryStore, StoredDocument, WriteOperation } from '../store/contract.js';
import { type CopyConflict, type CopyOutcome, type CopyProgress, CountBox } from './types.js';

/** Documents repomem keeps for itself (records, vectors, caches): records are copied as records. */
export const INTERNAL_PREFIX = '.repomem/';

/** Documents read and written per batch. */
const BATCH = 100;

async function readMany(store: MemoryStore, paths: readonly string[]): Promise<(StoredDocument | undefined)[]> {
  if (store.getMany !== undefined) return store.getMany(paths);
  return Promise.all(paths.map((path) => store.get(path)));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let index = 0; index < a.byteLength; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/** Options of {@link copyDocuments}. */
export interface CopyDocumentsOptions {
  readonly dryRun: boolean;
  readonly overwrite: boolean;
  readonly conflicts: CopyConflict[];
  readonly onProgress?: ((progress: CopyProgress) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Documents the history replay wrote (counted as copied; in a dry run, not written again). */
  readonly replayed?: ReadonlySet<string>;
}

/** Copy every document of `source` but repomem's own to `target`; counts and bytes written. */
export async function copyDocuments(
  source: MemoryStore,
  target: MemoryStore,
  options: CopyDocumentsOptions,
): Promise<{ counts: CountBox; bytes: number }> {
  const counts = new CountBox();
  let bytes = 0;
  const paths = (await source.list()).map((entry) => entry.path).filter((path) => !path.startsWith(INTERNAL_PREFIX));
  for (let start = 0; start < paths.length; start += BATCH) {
    options.signal?.throwIfAborted();
    const batch = paths.slice(start, start + BATCH);
    const [from, to] = await Promise.all([readMany(source, batch), readMany(target, batch)]);
    const writes: WriteOperation[] = [];
    const outcomes: [string, CopyOutcome, number][] = [];
    batch.forEach((path, index) => {
      const document = from[index];
      if (document === undefined) return; // deleted since the listing
      const existing = to[index];
      let outcome: CopyOutcome;
      const replayed = options.replayed?.has(path) === true;
      if (replayed && (options.dryRun || (existing !== undefined && sameBytes(existing.content, document.content)))) {
        // Written by the history replay: its last revision holds exactly these bytes.
        outcomes.push([path, 'copied', document.content.byteLength]);
        return;
      }
      if (existing === undefined) outcome = 'copied';
      else if (sameBytes(existing.content, document.content)) outcome = 'unchanged';
      else outcome = options.overwrite ? 'overwritten' : 'conflict';
      outcomes.push([path, outcome, document.content.byteLength]);
      if (outcome === 'copied' || outcome === 'overwritten') {
        writes.push({ kind: 'put', path, content: document.content, expectedVersion: existing?.version ?? null });
      }
    });
    if (writes.length > 0 && !options.dryRun) {
      const result = await target.write(writes, { message: `chore(memory): copy ${writes.length} documents` });
      if (result.status === 'conflict') {
        throw new RepomemError(
          'CONFLICT',
          `the target changed while copying (${result.conflicts.map((conflict) => conflict.path).join(', ')}); run the copy again`,
          { details: { conflicts: result.conflicts } },
        );
      }
    }
    for (const [path, outcome, size] of outcomes) {
      counts.add(outcome);
      if (outcome === 'conflict') options.conflicts.push({ part: 'document', name: path });
      if (outcome === 'copied' || outcome === 'overwritten') bytes += size;
    }
    options.onProgress?.({ phase: 'documents', done: Math.min(start + BATCH, paths.length), total: paths.length });
  }
  return { counts, bytes };
}
