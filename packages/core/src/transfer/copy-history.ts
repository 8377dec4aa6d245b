// Why: a memory on a git branch answers "what did the agent know, and when?", and moving it to
// another store that keeps history (git to git) should not reset that to one commit. When both
// sides keep history and the target holds no documents yet, the source's revisions are replayed
// oldest first, one target write per revision with its message, body and trailers, each document
// as it was in that revision. What the history contract cannot name is not replayed: documents
// deleted before the copy (they are not listed any more), and repomem's own `.repomem/` documents.
import { RepomemError } from '../errors.js';
import type { MemoryStore, WriteOperation } from '../store/contract.js';
import type { HistoryEntry } from '../store/history-contract.js';
import { INTERNAL_PREFIX } from './copy-documents.js';
import type { CopyProgress } from './types.js';

/** What a history replay did. */
export type HistoryOutcome =
  | { readonly kind: 'replayed'; readonly revisions: number; readonly paths: ReadonlySet<string> }
  | {
      readonly kind: 'skipped';
      readonly reason: 'no history on the source' | 'no history on the target' | 'target not empty';
    };

/** Options of {@link replayHistory}. */
export interface ReplayHistoryOptions {
  readonly dryRun: boolean;
  readonly onProgress?: ((progress: CopyProgress) => void) | undefined;
  readonly signal?: AbortSignal | undefined;
}

/** Replay the revisions of `source` that changed its current documents into an empty `target`. */
export async function replayHistory(
  source: MemoryStore,
  target: MemoryStore,
  options: ReplayHistoryOptions,
): Promise<HistoryOutcome> {
  const history = source.history;
  if (history === undefined) return { kind: 'skipped', reason: 'no history on the source' };
  if (target.history === undefined) return { kind: 'skipped', reason: 'no history on the target' };
  if ((await target.list()).some((entry) => !entry.path.startsWith(INTERNAL_PREFIX))) {
    return { kind: 'skipped', reason: 'target not empty' };
  }
  const paths = (await source.list()).map((entry) => entry.path).filter((path) => !path.startsWith(INTERNAL_PREFIX));
  // Which current documents each revision changed.
  const changed = new Map<string, string[]>();
  for (const path of paths) {
    for (const entry of await history.log({ path })) {
      const list = changed.get(entry.revision) ?? [];
      list.push(path);
      changed.set(entry.revision, list);
    }
  }
  const order: HistoryEntry[] = (await history.log({ hidePrefix: INTERNAL_PREFIX }))
    .filter((entry) => changed.has(entry.revision))
    .reverse();
  const written = new Set<string>();
  for (const revision of order) for (const path of changed.get(revision.revision) ?? []) written.add(path);
  if (options.dryRun) return { kind: 'replayed', revisions: order.length, paths: written };
  const versions = new Map<string, string | null>();
  for (const [index, revision] of order.entries()) {
    options.signal?.throwIfAborted();
    const writes: WriteOperation[] = [];
    for (const path of changed.get(revision.revision) ?? []) {
      const read = await history.readAt(path, revision.revision);
      const expectedVersion = versions.get(path) ?? null;
      if (read.status === 'found') writes.push({ kind: 'put', path, content: read.document.content, expectedVersion });
      else if (expectedVersion !== null) writes.push({ kind: 'delete', path, expectedVersion });
    }
    if (writes.length === 0) continue;
    const result = await target.write(writes, {
      message: revision.message,
      ...(revision.body === '' ? {} : { body: revision.body }),
      ...(Object.keys(revision.trailers).length === 0 ? {} : { trailers: revision.trailers }),
    });
    if (result.status === 'conflict') {
      throw new RepomemError(
        'CONFLICT',
        'the target changed while its history was replayed; start again on an empty target',
      );
    }
    for (const [path, version] of Object.entries(result.versions)) versions.set(path, version);
    options.onProgress?.({ phase: 'history', done: index + 1, total: order.length });
  }
  return { kind: 'replayed', revisions: order.length, paths: written };
}
