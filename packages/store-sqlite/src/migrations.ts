// Why: the database layout changes over releases while files outlive them. Each migration brings
// a database one schema version forward and runs inside the open-time `BEGIN IMMEDIATE`
// transaction of `ensureSchema` (schema.ts), so a database is either fully migrated or untouched,
// and two processes opening an old file at once migrate it once.
import type { DatabaseSync } from 'node:sqlite';
import { scopeToken } from './fts-query.js';
import { indexedText } from './indexed-text.js';

/**
 * FTS5 tokenizer: letters, digits and combining marks of every script form words, everything else
 * separates them, case folded, diacritics kept; the same word rule as core's search tokenizer.
 */
export const FTS_TOKENIZER = "unicode61 remove_diacritics 0 categories 'L* N* M*'";

/** One migration: brings a database from version `n` to `n + 1` (inside an open transaction). */
export type Migration = (db: DatabaseSync) => void;

/** Run SQL statements as a migration. */
const sql =
  (statements: string): Migration =>
  (db) =>
    db.exec(statements);

interface StoredRow {
  readonly id: number;
  readonly repo: string;
  readonly path: string;
  readonly content: Uint8Array;
}

/**
 * 3: per-document searchable length (core's `searchableLength`) for corpus figures, an index
 * that holds core's words (see indexed-text.ts) and is rebuilt from every stored document, and
 * the state table (small JSON values per repository scope, never searched).
 */
function addSearchableLengthAndState(db: DatabaseSync): void {
  db.exec(`
  ALTER TABLE documents ADD COLUMN searchable_length INTEGER;
  CREATE TABLE state (
    repo TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    version TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (repo, key)
  ) STRICT, WITHOUT ROWID;
  INSERT INTO documents_fts (documents_fts) VALUES ('delete-all');
  `);
  const ids = db.prepare('SELECT id FROM documents ORDER BY id').all() as unknown as Array<{ id: number }>;
  const read = db.prepare(
    'SELECT d.id AS id, d.repo AS repo, d.path AS path, c.content AS content FROM documents d JOIN document_contents c ON c.id = d.id WHERE d.id = ?',
  );
  const update = db.prepare('UPDATE documents SET indexed = ?, searchable_length = ? WHERE id = ?');
  const index = db.prepare('INSERT INTO documents_fts (rowid, scope, path, body) VALUES (?, ?, ?, ?)');
  const scopes = new Map<string, string>();
  for (const { id } of ids) {
    const row = read.get(id) as StoredRow | undefined;
    if (row === undefined) continue;
    const text = indexedText(row.path, row.content);
    update.run(text === undefined ? 0 : 1, text?.length ?? null, row.id);
    if (text === undefined) continue;
    let scope = scopes.get(row.repo);
    if (scope === undefined) {
      scope = scopeToken(row.repo);
      scopes.set(row.repo, scope);
    }
    index.run(row.id, scope, text.path, text.body);
  }
  db.exec(
    'UPDATE repos SET indexed_count = (SELECT count(*) FROM documents d WHERE d.repo = repos.repo AND d.indexed = 1)',
  );
}

/** Migration `n` brings a database from version `n` to `n + 1`. */
export const MIGRATIONS: ReadonlyArray<Migration> = [
  // 1: documents (metadata and content apart, so listing never reads content), their FTS5
  // index, and a revision counter per repository scope.
  sql(`
  CREATE TABLE repomem_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;
  CREATE TABLE repos (
    repo TEXT PRIMARY KEY,
    revision INTEGER NOT NULL,
    indexed_count INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE documents (
    id INTEGER PRIMARY KEY,
    repo TEXT NOT NULL,
    path TEXT NOT NULL,
    version TEXT NOT NULL,
    size INTEGER NOT NULL,
    indexed INTEGER NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (repo, path)
  ) STRICT;
  CREATE TABLE document_contents (
    id INTEGER PRIMARY KEY,
    content BLOB NOT NULL
  ) STRICT;
  CREATE VIRTUAL TABLE documents_fts USING fts5(
    scope, path, body,
    content = '', contentless_delete = 1,
    tokenize = "${FTS_TOKENIZER}"
  );
  `),
  // 2: verified memories, their citations by path, FTS5 over their text, telemetry.
  // The `*_key` columns hold timestamps as canonical UTC text (see time-key.ts) so ordering and
  // expiry compare correctly whatever offset a timestamp was written with.
  sql(`
  CREATE TABLE memories (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL,
    repo TEXT NOT NULL,
    subject TEXT NOT NULL,
    subject_key TEXT NOT NULL,
    fact TEXT NOT NULL,
    scope TEXT,
    scope_key TEXT,
    citations TEXT NOT NULL,
    reason TEXT,
    created_by TEXT,
    created_at TEXT NOT NULL,
    created_key TEXT NOT NULL,
    refreshed_at TEXT NOT NULL,
    refreshed_key TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    expires_key TEXT NOT NULL,
    status TEXT NOT NULL,
    superseded_by TEXT,
    supersedes TEXT,
    invalid_reason TEXT,
    verification_count INTEGER NOT NULL,
    revision INTEGER NOT NULL,
    UNIQUE (repo, id)
  ) STRICT;
  CREATE INDEX memories_recent ON memories (
    repo, status, refreshed_key DESC, created_key DESC, id DESC, expires_key
  );
  CREATE INDEX memories_subject ON memories (
    repo, subject_key, status, refreshed_key DESC, created_key DESC, id DESC
  );
  CREATE TABLE memory_citations (
    repo TEXT NOT NULL,
    memory_id TEXT NOT NULL,
    path TEXT NOT NULL,
    PRIMARY KEY (repo, memory_id, path)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX memory_citations_path ON memory_citations (repo, path);
  CREATE VIRTUAL TABLE memories_fts USING fts5(
    repo_scope, subject, fact, reason, scope,
    content = '', contentless_delete = 1,
    tokenize = "${FTS_TOKENIZER}"
  );
  CREATE TABLE memory_events (
    id INTEGER PRIMARY KEY,
    repo TEXT NOT NULL,
    memory_id TEXT NOT NULL,
    type TEXT NOT NULL,
    at TEXT NOT NULL,
    details TEXT
  ) STRICT;
  CREATE INDEX memory_events_repo ON memory_events (repo);
  CREATE INDEX memory_events_memory ON memory_events (repo, memory_id);
  CREATE INDEX memory_events_type ON memory_events (repo, type);
  `),
  addSearchableLengthAndState,
  // 4: where a memory was learned (issue 26): the branch and commit as columns (the branch is
  // what promotion and quarantine select by), promotion and quarantine as JSON. Existing rows
  // keep NULL: written before branch scope, they belong to the default branch's scope.
  sql(`
  ALTER TABLE memories ADD COLUMN learned_ref TEXT;
  ALTER TABLE memories ADD COLUMN learned_commit TEXT;
  ALTER TABLE memories ADD COLUMN promoted_from TEXT;
  ALTER TABLE memories ADD COLUMN quarantine TEXT;
  CREATE INDEX memories_learned_ref ON memories (repo, learned_ref);
  `),
];
