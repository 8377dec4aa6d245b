// Why: the database layout changes over releases while databases outlive them. Each migration
// brings a schema one version forward, as SQL text over the configured schema name, and runs
// inside the one transaction of `ensureSchema` (schema.ts), so a database is either fully
// migrated or untouched. Tables carry the names a team queries with plain SQL or Supabase's
// dashboard: `agent_memory` and `agent_memory_telemetry` for verified memory, `documents` and
// `state` for the memory tree, `task_records` for task memory.

/** Tables repomem creates (a schema holding one of them that repomem did not create is refused). */
export const REPOMEM_TABLES = [
  'repomem_meta',
  'repos',
  'documents',
  'state',
  'agent_memory',
  'agent_memory_telemetry',
  'task_records',
  'write_receipts',
  'repo_grants',
] as const;

/** Tables scoped by a `repo` column (each gets a row-level security policy). */
export const REPO_SCOPED_TABLES = [
  'repos',
  'documents',
  'state',
  'agent_memory',
  'agent_memory_telemetry',
  'task_records',
  'write_receipts',
] as const;

/** Migration `n` (SQL text for schema `s`, already quoted) brings a schema from version `n` to `n + 1`. */
export const MIGRATIONS: ReadonlyArray<(s: string) => string> = [
  (s) => `
  CREATE TABLE ${s}.repomem_meta (
    key text COLLATE "C" PRIMARY KEY,
    value text NOT NULL
  );
  CREATE TABLE ${s}.repos (
    repo text COLLATE "C" PRIMARY KEY,
    revision bigint NOT NULL DEFAULT 0
  );
  CREATE TABLE ${s}.documents (
    repo text COLLATE "C" NOT NULL,
    path text COLLATE "C" NOT NULL,
    version text NOT NULL,
    size integer NOT NULL,
    content bytea NOT NULL,
    words tsvector,
    searchable_length integer,
    unindexed boolean NOT NULL DEFAULT false,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (repo, path)
  );
  CREATE INDEX documents_words ON ${s}.documents USING gin (words);
  CREATE TABLE ${s}.state (
    repo text COLLATE "C" NOT NULL,
    key text COLLATE "C" NOT NULL,
    value text NOT NULL,
    version text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (repo, key)
  );
  CREATE TABLE ${s}.agent_memory (
    id uuid NOT NULL,
    repo text COLLATE "C" NOT NULL,
    subject text NOT NULL,
    subject_key text NOT NULL,
    fact text NOT NULL,
    citations jsonb NOT NULL,
    reason text,
    scope text,
    created_by text,
    created_at timestamptz NOT NULL,
    refreshed_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    status text NOT NULL CHECK (status IN ('active', 'invalid', 'superseded')),
    superseded_by uuid,
    supersedes uuid,
    invalid_reason text,
    verification_count integer NOT NULL,
    revision integer NOT NULL,
    timestamps_as_written jsonb NOT NULL,
    search_words tsvector NOT NULL,
    PRIMARY KEY (repo, id)
  );
  CREATE INDEX agent_memory_recent ON ${s}.agent_memory (repo, status, refreshed_at DESC, created_at DESC, id DESC);
  CREATE INDEX agent_memory_subject ON ${s}.agent_memory (repo, subject_key);
  CREATE INDEX agent_memory_citations ON ${s}.agent_memory USING gin (citations jsonb_path_ops);
  CREATE INDEX agent_memory_search ON ${s}.agent_memory USING gin (search_words);
  CREATE TABLE ${s}.agent_memory_telemetry (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    repo text COLLATE "C" NOT NULL,
    memory_id uuid NOT NULL,
    type text NOT NULL,
    at timestamptz NOT NULL,
    at_as_written text NOT NULL,
    details json
  );
  CREATE INDEX agent_memory_telemetry_repo ON ${s}.agent_memory_telemetry (repo, id);
  CREATE INDEX agent_memory_telemetry_memory ON ${s}.agent_memory_telemetry (repo, memory_id, id);
  CREATE TABLE ${s}.task_records (
    repo text COLLATE "C" NOT NULL,
    kind text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    revision integer NOT NULL,
    updated_at timestamptz NOT NULL,
    record json NOT NULL,
    search_words tsvector NOT NULL,
    PRIMARY KEY (repo, kind, id)
  );
  CREATE INDEX task_records_recent ON ${s}.task_records (repo, kind, updated_at DESC, id DESC);
  CREATE INDEX task_records_search ON ${s}.task_records USING gin (search_words);
  CREATE TABLE ${s}.write_receipts (
    token uuid PRIMARY KEY,
    repo text COLLATE "C" NOT NULL,
    result json NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE INDEX write_receipts_created ON ${s}.write_receipts (created_at);
  CREATE TABLE ${s}.repo_grants (
    role_name name NOT NULL,
    repo text COLLATE "C" NOT NULL,
    PRIMARY KEY (role_name, repo)
  );
  `,
  // 2: where a memory was learned (issue 26): the branch and commit as columns (the branch is
  // what promotion and quarantine select by), promotion and quarantine as jsonb. Existing rows
  // keep NULL: written before branch scope, they belong to the default branch's scope.
  (s) => `
  ALTER TABLE ${s}.agent_memory
    ADD COLUMN learned_ref text COLLATE "C",
    ADD COLUMN learned_commit text,
    ADD COLUMN promoted_from jsonb,
    ADD COLUMN quarantine jsonb;
  CREATE INDEX agent_memory_learned_ref ON ${s}.agent_memory (repo, learned_ref);
  `,
];
