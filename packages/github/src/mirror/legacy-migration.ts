// Why: older memory branches hold a flat mirror (`github/issue-42.json`), which Sepo leaves for
// users to move by hand and which keeps showing up in searches beside the namespaced files. This
// plans the move of each flat file into `github/<owner>/<repo>/` (a dry run by default) and applies
// it as one batch guarded by every file's version, so nothing is overwritten or lost.
import { type MemoryStore, RepomemError, type WriteOperation } from '@repomem/core';
import { type MirrorRepository, mirrorPrefix, parseMirrorFileName } from './mirror-paths.js';

/** One step of a legacy migration. */
export interface LegacyMigrationStep {
  /** The flat file, e.g. `github/issue-42.json`. */
  readonly from: string;
  /** Its namespaced place, e.g. `github/acme/app/issue-42.json`. */
  readonly to: string;
  /**
   * `move`: the target is free; `drop-duplicate`: the target already holds the same bytes (the
   * flat copy is removed); `skip-conflict`: the target holds other content (a newer sync) and both
   * are left as they are.
   */
  readonly action: 'move' | 'drop-duplicate' | 'skip-conflict';
}

/** Result of {@link migrateLegacyMirror}. */
export interface LegacyMigrationResult {
  /** Whether the plan was applied (`false`: a dry run). */
  readonly applied: boolean;
  /** Every flat mirror file found, in path order. */
  readonly steps: readonly LegacyMigrationStep[];
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && a.every((byte, index) => byte === b[index]);
}

/**
 * Plan (and with `apply: true`, perform) the move of flat `github/{issue,pull,discussion}-<n>.json`
 * files into `repo`'s namespace. Throws `CONFLICT` when the files changed while it was applied.
 */
export async function migrateLegacyMirror(options: {
  readonly store: MemoryStore;
  readonly repo: MirrorRepository;
  readonly apply?: boolean;
}): Promise<LegacyMigrationResult> {
  const { store, repo } = options;
  const operations: WriteOperation[] = [];
  const steps: LegacyMigrationStep[] = [];
  for (const entry of await store.list('github/')) {
    const name = entry.path.slice('github/'.length);
    if (name.includes('/') || parseMirrorFileName(name) === undefined) continue;
    const to = `${mirrorPrefix(repo)}${name}`;
    const [source, target] = await Promise.all([store.get(entry.path), store.get(to)]);
    if (source === undefined) continue;
    if (target === undefined) {
      steps.push({ from: entry.path, to, action: 'move' });
      operations.push(
        { kind: 'put', path: to, content: source.content, expectedVersion: null },
        { kind: 'delete', path: entry.path, expectedVersion: source.version },
      );
    } else if (sameBytes(source.content, target.content)) {
      steps.push({ from: entry.path, to, action: 'drop-duplicate' });
      operations.push({ kind: 'delete', path: entry.path, expectedVersion: source.version });
    } else {
      steps.push({ from: entry.path, to, action: 'skip-conflict' });
    }
  }
  if (options.apply !== true || operations.length === 0) return { applied: options.apply === true, steps };
  const result = await store.write(operations, {
    message: `chore(memory): move ${steps.filter((step) => step.action !== 'skip-conflict').length} flat GitHub mirror files into github/${repo.slug}/`,
  });
  if (result.status === 'conflict') {
    throw new RepomemError('CONFLICT', 'the mirror files changed while they were moved; run the migration again');
  }
  return { applied: true, steps };
}
