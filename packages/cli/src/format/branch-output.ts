// Why: renders the outcomes of the git branch commands (history, checkpoint, bootstrap, mount,
// commit, push, state) as short stable text, an exit code and a `--json` object, in pure functions.
import type {
  BootstrapResult,
  CommitMountedOutcome,
  CommitResult,
  MountOutcome,
  Revision,
  SkippedPath,
  StateReadResult,
  StateWriteResult,
  SyncOutcome,
} from '@repomem/store-git';
import { type CommandReport, failedReport, okReport } from '../command-report.js';

const short = (oid: string): string => oid.slice(0, 12);

function skippedWarnings(skipped: readonly SkippedPath[]): string[] {
  return skipped.map((entry) => entry.message);
}

/** `<oid>  <time>  <subject>` per revision, newest first, trailers indented below. */
export function describeHistory(
  store: string,
  path: string | undefined,
  revisions: readonly Revision[],
): CommandReport {
  const fields = { store, ...(path === undefined ? {} : { path }), count: revisions.length, revisions };
  if (revisions.length === 0) {
    return okReport('history', `no revisions${path === undefined ? '' : ` of ${path}`} in ${store}`, fields);
  }
  const lines: string[] = [];
  for (const revision of revisions) {
    lines.push(`${short(revision.oid)}  ${revision.time.toISOString()}  ${revision.message}`);
    for (const [key, value] of Object.entries(revision.trailers)) lines.push(`    ${key}: ${value}`);
  }
  return okReport('history', lines.join('\n'), fields);
}

/** A checkpoint made with the store (object mode): committed, or no change (nothing to commit). */
export function describeCheckpoint(store: string, note: string, result: CommitResult): CommandReport {
  switch (result.status) {
    case 'committed':
      return okReport('committed', `checkpoint ${short(result.commit)}: ${note}`, {
        store,
        note,
        commit: result.commit,
      });
    case 'noop':
      return okReport(
        'nothing_to_commit',
        `no change: nothing to checkpoint in ${store} (a checkpoint commits changes; use --into <mount> after editing a mount)`,
        { store, note, revision: result.revision },
      );
    case 'conflict':
      return failedReport('conflict', `checkpoint not committed: ${store} changed concurrently`, {
        store,
        note,
        conflicts: result.conflicts,
      });
  }
}

/** `bootstrap`: the new branch and its seeded files. */
export function describeBootstrap(result: BootstrapResult): CommandReport {
  return okReport(
    'created',
    `created branch ${result.branch} at ${short(result.commit)} (${result.files.length} seeded files)`,
    { ...result },
  );
}

/** `mount`: mounted (fresh or refreshed) or conflict with local edits (exit 2). */
export function describeMount(outcome: MountOutcome): CommandReport {
  if (outcome.status === 'conflict') {
    return failedReport(
      'conflict',
      [
        `not mounted: local edits in ${outcome.into} conflict with branch changes (nothing written):`,
        ...outcome.paths.map((path) => `  ${path}`),
      ].join('\n'),
      { into: outcome.into, paths: outcome.paths },
    );
  }
  const what = outcome.fresh ? 'mounted' : 'refreshed mount of';
  return okReport(
    'mounted',
    `${what} ${short(outcome.commit)} into ${outcome.into} (${outcome.written.length} written, ${outcome.removed.length} removed)`,
    { ...outcome },
    skippedWarnings(outcome.skipped),
  );
}

/** `commit` (and `checkpoint --into`): committed, nothing to commit, or conflict (exit 2). */
export function describeMountedCommit(into: string, outcome: CommitMountedOutcome, label = 'committed'): CommandReport {
  switch (outcome.status) {
    case 'committed': {
      const lines = [`${label} ${short(outcome.commit)} from ${into} (${outcome.changed.length} changed)`];
      for (const change of outcome.changed) lines.push(`  ${change.status} ${change.path}`);
      for (const path of outcome.merged) lines.push(`  merged from the branch: ${path}`);
      return okReport('committed', lines.join('\n'), { into, ...outcome }, skippedWarnings(outcome.skipped));
    }
    case 'nothing_to_commit':
      return okReport(
        'nothing_to_commit',
        `no change: nothing to commit in ${into}`,
        { into, ...outcome },
        skippedWarnings(outcome.skipped),
      );
    case 'conflict':
      return failedReport(
        'conflict',
        [
          `not committed: the branch changed the same files differently since the mount:`,
          ...outcome.paths.map((path) => `  ${path}`),
        ].join('\n'),
        { into, ...outcome },
      );
  }
}

/** `push`: up to date, fetched only, or pushed (with re-applied commits and resolved conflicts as warnings). */
export function describeSync(store: string, remote: string, outcome: SyncOutcome): CommandReport {
  const fields = { store, remote, ...outcome };
  switch (outcome.status) {
    case 'up_to_date':
      return okReport(
        'up_to_date',
        outcome.commit === null
          ? `up to date: the branch exists neither in ${store} nor on ${remote}`
          : `up to date: ${remote} holds ${short(outcome.commit)}`,
        fields,
      );
    case 'fetched_only':
      return okReport(
        'fetched_only',
        `fetched ${short(outcome.commit)} from ${remote} (nothing local to push)`,
        fields,
      );
    case 'pushed': {
      const details = [
        ...(outcome.reapplied > 0 ? [`${outcome.reapplied} commit(s) re-applied on the remote tip`] : []),
        ...(outcome.conflicts.length > 0
          ? [`${outcome.conflicts.length} conflict(s) resolved in favour of this run`]
          : []),
        ...(outcome.attempts > 1 ? [`${outcome.attempts} attempts`] : []),
      ];
      const created = outcome.previous === null ? ' (new branch)' : '';
      return okReport(
        'pushed',
        `pushed ${short(outcome.commit)} to ${remote}${created}${details.length > 0 ? ` (${details.join(', ')})` : ''}`,
        fields,
        outcome.conflicts.map(
          (conflict) => `conflict in ${conflict.path} (${conflict.kind}) resolved in favour of this run's change`,
        ),
      );
    }
  }
}

/** `state read`: the state as pretty JSON on stdout, or why there is no usable state (exit 2: start fresh). */
export function describeStateRead(result: StateReadResult<unknown>, repo?: string): CommandReport {
  switch (result.status) {
    case 'found': {
      // Without a repository the ref's state is shown as found, but never silently as this one's.
      const warnings =
        repo === undefined && result.repoSlug !== undefined
          ? [`no repository given (--repo or $GITHUB_REPOSITORY): this is the state of ${result.repoSlug}`]
          : undefined;
      return okReport('found', JSON.stringify(result.state, null, 2), { ...result }, warnings);
    }
    case 'missing':
      return failedReport('missing', `no state at ${result.ref} (start fresh)`, { ...result });
    case 'ignored_other_repo':
    case 'invalid':
      return failedReport(result.status, `${result.message} (start fresh)`, { ...result });
  }
}

/** `state write`: written, or a conflict (someone else wrote the ref; exit 2, nothing changed). */
export function describeStateWrite(result: StateWriteResult): CommandReport {
  if (result.status === 'written') {
    return okReport('written', `wrote ${result.ref} at ${short(result.commit)}`, { ...result });
  }
  const actual = result.actual === null ? 'absent' : `at ${short(result.actual)}`;
  const expected = result.expected === null ? 'absent' : `at ${short(result.expected)}`;
  return failedReport(
    'conflict',
    `not written: ${result.ref} is ${actual}, expected ${expected} (someone else wrote it; read it again and retry)`,
    { ...result },
  );
}
