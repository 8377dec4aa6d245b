// Why: the one description of how a memory MCP server is opened (which store, which repository,
// which access mode, where cited code is read), shared by the library function, the stdio and
// HTTP helpers and the `repomem mcp` command.
import type {
  CitationReader,
  Embedder,
  MemoryMode,
  MemoryStore,
  ResolvedSpec,
  StoreRegistry,
  StoreScheme,
  TaskRecordBackend,
  VerifiedMemoryBackend,
} from '@repomem/core';
import type { ToolNameStyle } from './tool-names.js';

/** Options of {@link createMemoryMcpServer} and {@link openMemoryMcpContext}. */
export interface MemoryMcpOptions {
  /** An open store to serve (the caller keeps ownership: it is not closed with the server). */
  readonly store?: MemoryStore;
  /**
   * A store spec (`sqlite:.repomem/repomem.db`, `dir:memory`, `git:.#agent/memory`) or a spec
   * resolved earlier by the registry, opened through `registry` (default: `sqlite:.repomem/repomem.db`).
   */
  readonly storeSpec?: string | ResolvedSpec<StoreScheme>;
  /** The repository every tool is scoped to (`owner/name`), fixed for the server's lifetime. */
  readonly repo: string;
  /** Access mode: `enabled` (default), `read-only` (write tools hidden and refused) or `disabled` (nothing offered). */
  readonly mode?: MemoryMode;
  /** Registry that opens `storeSpec` and a citation-source spec (default: core's default registry). */
  readonly registry?: StoreRegistry;
  /**
   * Most server connections `storeSpec` may hold when it sets none itself (PostgreSQL's
   * `pool_max`): `repomem mcp` over stdio serves one client and passes 1; unset, the scheme's
   * default pool, for a server with many concurrent sessions.
   */
  readonly maxConnections?: number;
  /**
   * Where cited code is read: an open reader, or a citation-source spec (`git:<dir>[#ref]`,
   * `dir:<worktree>`, `github`). Default: the git repository around `cwd`, else `cwd` itself.
   * Opened on first use.
   */
  readonly citationReader?: CitationReader | string;
  /** Verified-memory backend to use instead of the store's own (tests, embedding applications). */
  readonly verifiedBackend?: VerifiedMemoryBackend;
  /** Task-record backend (episodes, rules, learnings, preferences) to use instead of the store's own. */
  readonly taskBackend?: TaskRecordBackend;
  /** Directory relative specs resolve against (default `process.cwd()`). */
  readonly cwd?: string;
  /** Environment for specs (default `process.env`; the GitHub source reads `GITHUB_TOKEN`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Tool names: `dotted` (`memory.store`, default) or `underscored` (`memory_store`) for clients that reject dots. */
  readonly toolNames?: ToolNameStyle;
  /** How often the store's revision is checked for resource list changes, in ms (default 1000; 0 turns it off). */
  readonly watchIntervalMs?: number;
  /**
   * An embedder (`openEmbedder('local')`, `createLocalEmbedder()`...): `memory.search` then fuses
   * lexical and semantic rankings (`hybridSearch`) and `memory.hydrate` scores by meaning too,
   * over vectors kept in the store (`repomem index` builds them). Without one both are lexical.
   */
  readonly embedder?: Embedder;
}
