// Why: the SQL of documents lives in one place, prepared once per connection, so the store's
// read and write paths read as steps (check, insert or update, index, bump) instead of strings.
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/** The statements of one connection for documents, their index rows and the revision counter. */
export class DocumentStatements {
  /** `(repo, path)` → `{ id, version, indexed }` of the current row. */
  readonly current: StatementSync;
  /** `(repo, path)` → `{ version, size, content }`. */
  readonly get: StatementSync;
  /** The listing under a prefix condition (see `prefixCondition`): `{ repo, ...params }` → `{ path, version, size }`. */
  readonly list: (prefixSql: string) => StatementSync;
  /** `(repo, path, version, size, indexed, searchable_length, updated_at)`. */
  readonly insert: StatementSync;
  /** `(id, content)`. */
  readonly insertContent: StatementSync;
  /** `(version, size, indexed, searchable_length, updated_at, id)`. */
  readonly update: StatementSync;
  /** `(content, id)`. */
  readonly updateContent: StatementSync;
  /** `(id)`. */
  readonly remove: StatementSync;
  /** `(id)`. */
  readonly removeContent: StatementSync;
  /** `(rowid, scope, path words, body words)`. */
  readonly ftsInsert: StatementSync;
  /** `(rowid)`. */
  readonly ftsDelete: StatementSync;
  /** `{ repo, delta }` → `{ revision }`: one more revision, and the indexed count moved by `delta`. */
  readonly bump: StatementSync;
  /** `(repo)` → `{ revision }`. */
  readonly revision: StatementSync;

  constructor(db: DatabaseSync) {
    this.current = db.prepare('SELECT id, version, indexed FROM documents WHERE repo = ? AND path = ?');
    this.get = db.prepare(
      'SELECT d.version AS version, d.size AS size, c.content AS content FROM documents d JOIN document_contents c ON c.id = d.id WHERE d.repo = ? AND d.path = ?',
    );
    const listings = new Map<string, StatementSync>();
    this.list = (prefixSql: string): StatementSync => {
      let statement = listings.get(prefixSql);
      if (statement === undefined) {
        statement = db.prepare(`SELECT path, version, size FROM documents WHERE repo = :repo AND ${prefixSql}`);
        listings.set(prefixSql, statement);
      }
      return statement;
    };
    this.insert = db.prepare(
      'INSERT INTO documents (repo, path, version, size, indexed, searchable_length, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertContent = db.prepare("INSERT INTO document_contents (id, content) VALUES (?, coalesce(?, X''))");
    this.update = db.prepare(
      'UPDATE documents SET version = ?, size = ?, indexed = ?, searchable_length = ?, updated_at = ? WHERE id = ?',
    );
    this.updateContent = db.prepare("UPDATE document_contents SET content = coalesce(?, X'') WHERE id = ?");
    this.remove = db.prepare('DELETE FROM documents WHERE id = ?');
    this.removeContent = db.prepare('DELETE FROM document_contents WHERE id = ?');
    this.ftsInsert = db.prepare('INSERT INTO documents_fts (rowid, scope, path, body) VALUES (?, ?, ?, ?)');
    this.ftsDelete = db.prepare('DELETE FROM documents_fts WHERE rowid = ?');
    this.bump = db.prepare(
      'INSERT INTO repos (repo, revision, indexed_count) VALUES (:repo, 1, :delta) ON CONFLICT (repo) DO UPDATE SET revision = revision + 1, indexed_count = indexed_count + :delta RETURNING revision',
    );
    this.revision = db.prepare('SELECT revision FROM repos WHERE repo = ?');
  }
}
