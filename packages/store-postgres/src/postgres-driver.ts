// Why: PostgreSQL as a store kit driver over the tables an existing database already has: the
// kit's `documents` namespace is the `documents` table (with its tsvector index entry written
// beside each row) and `state` is the `state` table, both scoped by repository, so a database
// written before the kit opens unchanged. A batch is one transaction (`atomic`): it locks and
// bumps the repository's row in `repos` when it touches documents (the cheap `revision` token)
// and takes the repository's state advisory lock when it touches state, then checks every
// expected version and applies. The tsvector index answers `fullText`; `readAll` reads one
// snapshot (a repeatable-read transaction), as the store always did. Row-level security is
// checked at open (repo-access.ts); pooling, retries and receipts live in database.ts.
import {
  assertNoPathTwins,
  KIT_DRIVER_VERSION,
  type KitChange,
  type KitConflict,
  type KitDriver,
  type KitEntry,
  type KitWriteResult,
  RepomemError,
  type StoredDocument,
} from '@repomem/core';
import type { PostgresDatabase, Transaction, TransactionOutcome } from './database.js';
import { type IndexedText, indexedText } from './indexed-text.js';
import { PostgresCandidates } from './postgres-candidates.js';
import { likePrefix } from './sql-text.js';

/** Largest value the driver holds: 256 MiB (a `bytea` holds up to 1 GB). */
export const MAX_POSTGRES_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** Where a driver works: an open database, its identity, a repository scope. */
export interface PostgresDriverTarget {
  readonly db: PostgresDatabase;
  /** The database's random identity (`repomem_meta.database_id`), the first half of the revision token. */
  readonly databaseId: string;
  readonly repo: string;
  /** Refuse every write (`READ_ONLY`). */
  readonly readOnly: boolean;
  /** Names the store in the read-only refusal. */
  readonly label: string;
  /**
   * Also refuse path twins inside the write transaction, under the repository's row lock (the
   * store sets it: core's check runs before the transaction, so two writers creating twins at
   * the same moment could otherwise both succeed). Off for the bare driver, which holds any key.
   */
  readonly twinsUnderLock?: boolean;
}

/** The kit namespaces and their tables: key column, and how a value is held. */
const TABLES = {
  documents: { table: 'documents', key: 'path', value: 'content' },
  state: { table: 'state', key: 'key', value: 'value' },
} as const;
type Namespace = keyof typeof TABLES;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function tableOf(namespace: string): (typeof TABLES)[Namespace] {
  const found = TABLES[namespace as Namespace];
  if (found === undefined || !Object.hasOwn(TABLES, namespace)) {
    throw new RepomemError(
      'UNSUPPORTED',
      `the postgres driver keeps only the "documents" and "state" namespaces (its tables), not ${JSON.stringify(namespace)}`,
    );
  }
  return found;
}

interface Row {
  readonly key: string;
  readonly version: string;
  readonly size?: number;
  readonly value?: Uint8Array | string;
}

function entryOf(row: Row, withValue: boolean): KitEntry {
  if (!withValue || row.value === undefined) return { key: row.key, version: row.version, size: Number(row.size) };
  const value = typeof row.value === 'string' ? encoder.encode(row.value) : row.value;
  return { key: row.key, version: row.version, size: value.byteLength, value };
}

/** How many documents `preconditions` remembers, and the largest it keeps. */
const SEEN_ENTRIES = 256;
const SEEN_VALUE_BYTES = 1024 * 1024;

/** Documents whose contents one statement of `readAll` fetches. */
const READ_ALL_CHUNK = 200;

const byKey = (a: KitEntry, b: KitEntry): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

function stateText(change: KitChange): string {
  try {
    return decoder.decode(change.value as Uint8Array);
  } catch (error) {
    throw new RepomemError('INVALID_ARGUMENT', `the state value of ${change.key} is not UTF-8 text`, { cause: error });
  }
}

/** What the refused write was, for the read-only message. */
function actionOf(changes: readonly KitChange[]): string {
  const first = changes[0];
  if (first === undefined || changes.some((change) => change.namespace !== 'state')) return 'write()';
  return `state.${first.value === null ? 'delete' : 'put'}(${first.key})`;
}

/**
 * A kit driver on an open database (the store, `openPostgresStore`, builds `createStore` on it).
 * Closing it closes `db` (pass a `db.view()` to keep a shared pool open).
 */
export function createPostgresDriver(target: PostgresDriverTarget): KitDriver {
  const { db, repo } = target;
  const candidates = new PostgresCandidates(db, repo);
  // Documents this instance last read or wrote, so a write's pre-read can start from the version
  // its caller just read (see `preconditions`); small, and only ever a hint.
  const seen = new Map<string, KitEntry>();
  const remember = (key: string, entry: KitEntry | undefined): void => {
    seen.delete(key);
    if (entry === undefined || (entry.value?.byteLength ?? 0) > SEEN_VALUE_BYTES) return;
    seen.set(key, entry);
    for (const [oldest] of seen) {
      if (seen.size <= SEEN_ENTRIES) break;
      seen.delete(oldest);
    }
  };

  async function read(namespace: string, keys: readonly string[]): Promise<(KitEntry | undefined)[]> {
    const { table, key, value } = tableOf(namespace);
    if (keys.length === 0) return [];
    // One round trip for the whole batch (core reads up to 100 keys per call).
    const rows = await db.readOnce<Row>(
      `read(${keys.length} ${namespace} keys)`,
      `SELECT ${key} AS key, version, ${value} AS value FROM ${db.table(table)} WHERE repo = $1 AND ${key} = ANY($2::text[])`,
      [repo, [...new Set(keys)]],
    );
    const found = new Map(rows.map((row) => [row.key, entryOf(row, true)]));
    if (namespace === 'documents') for (const wanted of keys) remember(wanted, found.get(wanted));
    return keys.map((wanted) => found.get(wanted));
  }

  async function apply(tx: Transaction, change: KitChange, indexed: Map<KitChange, IndexedText | undefined>) {
    const { table, key } = tableOf(change.namespace);
    if (change.value === null || change.version === null) {
      await tx.query(`DELETE FROM ${db.table(table)} WHERE repo = $1 AND ${key} = $2`, [repo, change.key]);
    } else if (change.namespace === 'state') {
      await tx.query(
        `INSERT INTO ${db.table('state')} (repo, key, value, version, updated_at) VALUES ($1, $2, $3, $4, now())
         ON CONFLICT (repo, key) DO UPDATE SET value = excluded.value, version = excluded.version, updated_at = now()`,
        [repo, change.key, stateText(change), change.version],
      );
    } else {
      const entry = indexed.get(change);
      await tx.query(
        `INSERT INTO ${db.table('documents')} (repo, path, version, size, content, words, searchable_length, unindexed, updated_at)
         VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::text[] IS NULL THEN NULL ELSE array_to_tsvector($6::text[]) END, $7, $8, now())
         ON CONFLICT (repo, path) DO UPDATE SET version = excluded.version, size = excluded.size, content = excluded.content,
           words = excluded.words, searchable_length = excluded.searchable_length, unindexed = excluded.unindexed, updated_at = now()`,
        [
          repo,
          change.key,
          change.version,
          change.value.byteLength,
          Buffer.from(change.value.buffer, change.value.byteOffset, change.value.byteLength),
          entry?.words === undefined ? null : entry.words,
          entry?.length ?? null,
          entry !== undefined && entry.words === undefined,
        ],
      );
    }
  }

  /**
   * Core refuses path twins before the batch reaches the driver; checked again here under the
   * repository's row lock, so two writers creating `Notes.md` and `notes.md` at the same moment
   * cannot both succeed (only batches creating documents pay for the listing).
   */
  async function refuseTwins(tx: Transaction, changes: readonly KitChange[], current: ReadonlyMap<string, string>) {
    if (target.twinsUnderLock !== true) return;
    const documents = changes.filter((change) => change.namespace === 'documents');
    const created = documents.filter((change) => change.value !== null && !current.has(`documents\0${change.key}`));
    if (created.length === 0) return;
    const rows = await tx.query<{ path: string }>(`SELECT path FROM ${db.table('documents')} WHERE repo = $1`, [repo]);
    const deleted = new Set(documents.filter((change) => change.value === null).map((change) => change.key));
    assertNoPathTwins(
      created.map((change) => change.key),
      rows.map((row) => row.path),
      deleted,
    );
  }

  /** Lock what the batch touches, check every precondition, apply (inside one transaction). */
  async function transact(tx: Transaction, changes: readonly KitChange[]): Promise<TransactionOutcome<KitWriteResult>> {
    const indexed = new Map<KitChange, IndexedText | undefined>();
    for (const change of changes) {
      if (change.namespace === 'documents' && change.value !== null) {
        indexed.set(change, indexedText(change.key, change.value));
      }
    }
    if (changes.some((change) => change.namespace === 'documents')) {
      // Taking the row lock also bumps the revision; a conflict rolls the bump back.
      await tx.query(
        `INSERT INTO ${db.table('repos')} (repo, revision) VALUES ($1, 1) ON CONFLICT (repo) DO UPDATE SET revision = repos.revision + 1`,
        [repo],
      );
    }
    if (changes.some((change) => change.namespace === 'state')) {
      await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('repomem:state:' || $1 || ':' || $2, 0))", [
        db.schema,
        repo,
      ]);
    }
    const current = new Map<string, string>();
    for (const namespace of new Set(changes.map((change) => change.namespace))) {
      const { table, key } = tableOf(namespace);
      const keys = changes.filter((change) => change.namespace === namespace).map((change) => change.key);
      const rows = await tx.query<{ key: string; version: string }>(
        `SELECT ${key} AS key, version FROM ${db.table(table)} WHERE repo = $1 AND ${key} = ANY($2::text[])`,
        [repo, [...new Set(keys)]],
      );
      for (const row of rows) current.set(`${namespace}\0${row.key}`, row.version);
    }
    const conflicts: KitConflict[] = [];
    for (const change of changes) {
      const actual = current.get(`${change.namespace}\0${change.key}`) ?? null;
      if (change.expected !== undefined && change.expected !== actual) {
        conflicts.push({ namespace: change.namespace, key: change.key, actual });
      }
    }
    if (conflicts.length > 0) return { commit: false, value: { status: 'conflict', conflicts } };
    await refuseTwins(tx, changes, current);
    for (const change of changes) {
      // An unchanged document keeps its row (and its index entry).
      if (change.value !== null && current.get(`${change.namespace}\0${change.key}`) === change.version) continue;
      await apply(tx, change, indexed);
    }
    return { commit: true, value: { status: 'committed' } };
  }

  return {
    kit: KIT_DRIVER_VERSION,
    name: 'postgres',
    batch: 'atomic',
    maxValueBytes: MAX_POSTGRES_DOCUMENT_BYTES,

    read,

    async scan(namespace, { prefix, values = true }) {
      const { table, key, value } = tableOf(namespace);
      const parameters: unknown[] = [repo];
      const size = namespace === 'state' ? `octet_length(${value})` : 'size';
      let sql = `SELECT ${key} AS key, version, ${size} AS size${values ? `, ${value} AS value` : ''} FROM ${db.table(table)} WHERE repo = $1`;
      if (prefix !== '') {
        parameters.push(likePrefix(prefix));
        sql += ` AND ${key} LIKE $2 ESCAPE '\\'`;
      }
      const rows = await db.readOnce<Row>(`scan(${namespace})`, sql, parameters);
      // The "C" collation orders by UTF-8 bytes; the contract asks for JavaScript's order.
      return rows.map((row) => entryOf(row, values)).sort(byKey);
    },

    async write(changes) {
      if (target.readOnly) {
        throw new RepomemError(
          'READ_ONLY',
          `the postgres store ${target.label} is open read-only; ${actionOf(changes)} was refused`,
        );
      }
      for (const change of changes) tableOf(change.namespace);
      if (changes.length === 0) return { status: 'committed' };
      const result = await db.transaction(
        changes.some((change) => change.namespace === 'documents') ? 'write()' : actionOf(changes),
        (tx) => transact(tx, changes),
        { write: true, receiptRepo: repo },
      );
      for (const change of changes) {
        if (change.namespace !== 'documents') continue;
        const { key, value, version } = change;
        const known = result.status === 'committed' && value !== null && version !== null;
        remember(key, known ? { key, version, size: value.byteLength, value } : undefined);
      }
      return result;
    },

    async close() {
      await db.close();
    },

    fullText: { candidates: (query) => candidates.answer(query) },

    // A bullet add reads the document, then writes it expecting that version: the pre-read of
    // the write answers from what this instance just read (one round trip fewer). The write's
    // transaction checks every precondition itself, so a stale hint is a conflict, never a loss.
    preconditions: {
      async read(namespace, keys, expected) {
        const hinted = keys.map((key, index) => {
          const entry = namespace === 'documents' ? seen.get(key) : undefined;
          return entry !== undefined && typeof expected[index] === 'string' && entry.version === expected[index]
            ? entry
            : undefined;
        });
        const missing = keys.filter((_, index) => hinted[index] === undefined);
        const fetched = await read(namespace, missing);
        const byKey = new Map(missing.map((key, index) => [key, fetched[index]]));
        return keys.map((key, index) => hinted[index] ?? byKey.get(key));
      },
    },

    // One snapshot: the listing and every content come from the same moment (the kit's default
    // would list, then read in chunks, each at its own moment).
    readAll: {
      read: (options) =>
        db.read('readAll()', async (tx) => {
          await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
          const parameters: unknown[] = [repo];
          let sql = `SELECT path, size FROM ${db.table('documents')} WHERE repo = $1`;
          if (options.prefix !== '') {
            parameters.push(likePrefix(options.prefix));
            sql += ` AND path LIKE $2 ESCAPE '\\'`;
          }
          const accept = options.accept ?? (() => true);
          const paths = (await tx.query<{ path: string; size: number }>(sql, parameters))
            .filter((row) => accept(row.path, Number(row.size)))
            .map((row) => row.path)
            .sort();
          const out: StoredDocument[] = [];
          for (let start = 0; start < paths.length; start += READ_ALL_CHUNK) {
            const rows = await tx.query<{ path: string; version: string; content: Uint8Array }>(
              `SELECT path, version, content FROM ${db.table('documents')} WHERE repo = $1 AND path = ANY($2::text[])`,
              [repo, paths.slice(start, start + READ_ALL_CHUNK)],
            );
            rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
            for (const row of rows) {
              const content = new Uint8Array(row.content);
              const document = { path: row.path, version: row.version, size: content.byteLength, content };
              if (options.each === undefined) out.push(document);
              else options.each(document);
            }
          }
          return out;
        }),
    },

    revision: {
      async current() {
        const rows = await db.readOnce<{ revision: string }>(
          'revision()',
          `SELECT revision FROM ${db.table('repos')} WHERE repo = $1`,
          [repo],
        );
        return `${target.databaseId}.${rows[0]?.revision ?? '0'}`;
      },
    },
  };
}
