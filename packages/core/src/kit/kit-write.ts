// Why: the batch write pipeline existed once per store (validate, read current versions, check
// expected versions, refuse path twins, scan for credentials, apply, report conflicts). Here it
// is once, above every driver: a driver only ever sees a batch that passed all of it, so the
// credential scan cannot be skipped by a driver. An `atomic` or `isolated` driver gets the whole
// batch in one call (its own transaction or writer lock keeps other writers out). On a `per-key` driver a batch is applied one
// change at a time, under in-process locks taken in path order (so batches of one process never
// interleave), and what was applied is put back (each restore a compare-and-swap on the version
// just written) when a later change conflicts.
import { RepomemError } from '../errors.js';
import type { WriteConflict, WriteMetadata, WriteOperation, WriteResult } from '../store/contract.js';
import { acquireKeyedMutex } from '../store/keyed-mutex.js';
import { assertNoPathTwins } from '../store/path-twins.js';
import { expectationHolds, type PreparedOperation, prepareWriteBatch } from '../store/write-batch.js';
import { checkEntry } from './check-driver.js';
import type { KitChange, KitConflict, KitDriver, KitEntry, KitWriteResult } from './driver.js';

/** Namespace of memory documents (verified and task records live there too, under `.repomem/`). */
export const DOCUMENTS_NAMESPACE = 'documents';

/** What the write pipeline needs from the store around it. */
export interface KitWriteContext {
  readonly driver: KitDriver;
  readonly maxDocumentBytes: number;
  /** Every stored document path under `prefix` (`''`: all; otherwise a directory ending in `/`). */
  listPaths(prefix: string): Promise<string[]>;
  /** Called with each committed document (content `null` when deleted). */
  remember(path: string, version: string | null, content: Uint8Array | null): void;
}

function changeOf(operation: PreparedOperation): KitChange {
  const put = operation.kind === 'put';
  return {
    namespace: DOCUMENTS_NAMESPACE,
    key: operation.path,
    value: put ? operation.content : null,
    version: put ? operation.version : null,
    ...(operation.expectedVersion === undefined ? {} : { expected: operation.expectedVersion }),
  };
}

/**
 * The stored paths a twin of `created` could be found among: for each created path, every path
 * under its deepest existing ancestor directory. A twin differs at the first level whose exact
 * name does not exist, so it is a child of that ancestor; levels above exist exactly (no twin
 * there), and a deeper twin implies one at that level. So a new daily file is checked against
 * `daily/`, not the whole namespace; only a new top-level name lists everything.
 */
async function twinCandidates(context: KitWriteContext, created: readonly string[]): Promise<string[]> {
  const native = context.driver.twins;
  if (native !== undefined) return native.candidates(DOCUMENTS_NAMESPACE, created);
  const scanned = new Map<string, string[]>();
  const under = async (directory: string): Promise<string[]> => {
    let paths = scanned.get(directory);
    if (paths === undefined) {
      paths = await context.listPaths(directory === '' ? '' : `${directory}/`);
      scanned.set(directory, paths);
    }
    return paths;
  };
  const out = new Set<string>();
  for (const path of created) {
    let directory = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    for (;;) {
      const paths = await under(directory);
      if (paths.length > 0 || directory === '') {
        for (const found of paths) out.add(found);
        break;
      }
      directory = directory.includes('/') ? directory.slice(0, directory.lastIndexOf('/')) : '';
    }
  }
  return [...out];
}

function conflictOf(batch: readonly PreparedOperation[], result: Extract<KitWriteResult, { status: 'conflict' }>) {
  const conflicts: WriteConflict[] = result.conflicts.map((conflict) => ({
    path: conflict.key,
    expected: batch.find((operation) => operation.path === conflict.key)?.expectedVersion ?? null,
    actual: conflict.actual,
  }));
  return { status: 'conflict' as const, conflicts };
}

/**
 * The version stored for change `index` of a committed batch: the driver's own when it
 * `assignsVersions` (its answer must carry it), else the one the kit sent.
 */
export function storedVersion(driver: KitDriver, result: KitWriteResult, index: number, sent: string | null) {
  if (driver.assignsVersions !== true) return sent;
  const version = result.status === 'committed' ? result.versions?.[index] : undefined;
  if (version === undefined || (version !== null && (typeof version !== 'string' || version === ''))) {
    throw new RepomemError(
      'INVALID_DOCUMENT',
      `the ${driver.name} driver assigns versions but its write answered none for change ${index}`,
      { details: { driver: driver.name } },
    );
  }
  return version;
}

/** Put back changes applied by a per-key batch that then conflicted, newest first. */
async function putBack(
  driver: KitDriver,
  applied: readonly { change: KitChange; stored: string | null; before?: KitEntry }[],
): Promise<void> {
  for (const { change, stored, before } of [...applied].reverse()) {
    // A restore that conflicts means a later writer replaced our change: theirs stays.
    await driver.write([
      {
        namespace: change.namespace,
        key: change.key,
        value: before?.value ?? null,
        version: before?.version ?? null,
        expected: stored,
      },
    ]);
  }
}

/** Validate, check and apply one document batch through `context.driver`. */
export async function writeDocuments(
  context: KitWriteContext,
  operations: readonly WriteOperation[],
  metadata?: WriteMetadata,
): Promise<WriteResult> {
  const { driver } = context;
  const batch = prepareWriteBatch(operations, context.maxDocumentBytes);
  if (batch.length === 0) return { status: 'committed', versions: {} };
  if (driver.batch !== 'per-key') return applyBatch(context, batch, metadata);
  const releases: (() => void)[] = [];
  try {
    for (const path of batch.map((operation) => operation.path).sort()) {
      releases.push(await acquireKeyedMutex(`kit\0${driver.name}\0${path}`));
    }
    return await applyBatch(context, batch, metadata);
  } finally {
    for (const release of releases) release();
  }
}

async function applyBatch(
  context: KitWriteContext,
  batch: readonly PreparedOperation[],
  metadata: WriteMetadata | undefined,
): Promise<WriteResult> {
  const { driver } = context;
  const paths = batch.map((operation) => operation.path);
  const current =
    driver.preconditions === undefined
      ? await driver.read(DOCUMENTS_NAMESPACE, paths)
      : await driver.preconditions.read(
          DOCUMENTS_NAMESPACE,
          paths,
          batch.map((operation) => operation.expectedVersion),
        );
  const conflicts: WriteConflict[] = [];
  batch.forEach((operation, index) => {
    const entry = current[index];
    if (entry !== undefined) checkEntry(driver, entry, operation.path, true);
    const actual = entry?.version ?? null;
    if (!expectationHolds(operation.expectedVersion, actual)) {
      conflicts.push({ path: operation.path, expected: operation.expectedVersion ?? null, actual });
    }
  });
  if (conflicts.length > 0) return { status: 'conflict', conflicts };
  const created = batch.filter((operation, index) => operation.kind === 'put' && current[index] === undefined);
  if (created.length > 0) {
    const deleted = new Set(
      batch.filter((operation) => operation.kind === 'delete').map((operation) => operation.path),
    );
    assertNoPathTwins(
      created.map((operation) => operation.path),
      await twinCandidates(
        context,
        created.map((operation) => operation.path),
      ),
      deleted,
    );
  }
  const changes = batch.map(changeOf);
  const stored: (string | null)[] = changes.map((change) => change.version);
  if (driver.batch !== 'per-key' || changes.length === 1) {
    const result = await driver.write(changes, metadata);
    if (result.status === 'conflict') return conflictOf(batch, result);
    changes.forEach((change, index) => {
      stored[index] = storedVersion(driver, result, index, change.version);
    });
  } else {
    // One change per call, `concurrentWrites.limit` at a time (default one after another); no
    // change starts after a conflict or a failure, and every committed one is then put back.
    const applied: ({ change: KitChange; stored: string | null; before?: KitEntry } | undefined)[] = [];
    const conflicts: KitConflict[] = [];
    const failures: unknown[] = [];
    let next = 0;
    const apply = async (): Promise<void> => {
      while (next < changes.length && conflicts.length === 0 && failures.length === 0) {
        const index = next++;
        const change = changes[index] as KitChange;
        let result: KitWriteResult;
        try {
          result = await driver.write([change], metadata);
        } catch (error) {
          failures.push(error);
          return;
        }
        if (result.status === 'conflict') {
          conflicts.push(...result.conflicts);
          return;
        }
        const before = current[index];
        stored[index] = storedVersion(driver, result, 0, change.version);
        const done = { change, stored: stored[index] ?? null };
        applied[index] = before === undefined ? done : { ...done, before };
      }
    };
    const lanes = Math.min(driver.concurrentWrites?.limit ?? 1, changes.length);
    await Promise.all(Array.from({ length: lanes }, apply));
    const committed = applied.filter((entry) => entry !== undefined);
    if (failures.length > 0) {
      await putBack(driver, committed).catch(() => {});
      throw failures[0];
    }
    if (conflicts.length > 0) {
      await putBack(driver, committed);
      return conflictOf(batch, { status: 'conflict', conflicts });
    }
  }
  const versions: Record<string, string | null> = {};
  for (const [index, operation] of batch.entries()) {
    const version = operation.kind === 'put' ? (stored[index] ?? null) : null;
    versions[operation.path] = version;
    context.remember(operation.path, version, operation.kind === 'put' ? operation.content : null);
  }
  return { status: 'committed', versions };
}
