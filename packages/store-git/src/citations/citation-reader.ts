// Why: memories cite code in the repository being worked on, and the cheapest truthful check is
// the repository itself: this reader returns a file's text at a revision straight from git's
// object database (loose or packed, no checkout, nothing written), through the same object layer
// the git store uses, and caches results by (commit id, path) because both are immutable.
import {
  type AncestryAnswer,
  type AncestryRequest,
  type BranchNames,
  type CitationLocation,
  type CitationReader,
  type CitationSource,
  isBinaryContent,
  type LineMapping,
  type LineMapRequest,
  normalizeDocumentPath,
  RepomemError,
} from '@repomem/core';
import { LRUCache } from 'lru-cache';
import { GitObjectStore } from '../objects/object-store.js';
import { lookupPath } from '../objects/tree-walk.js';
import { type GitFileSystem, nodeFileSystem } from '../repository/file-system.js';
import { type GitRepositoryLayout, locateRepository } from '../repository/repository.js';
import { resolveCitationRevision } from './citation-revision.js';
import { readBranchNames } from './git-branch-names.js';
import { createGitHistory } from './git-history.js';
import { createGitLineMapper } from './git-line-mapper.js';

/** Default largest file the git citation reader decodes (1 MiB). */
export const DEFAULT_GIT_CITATION_MAX_BYTES = 1024 * 1024;
/** Default number of (commit, path) reads the git citation reader keeps. */
export const DEFAULT_GIT_CITATION_CACHE_SIZE = 512;

/** Options of {@link createGitCitationReader}. */
export interface GitCitationReaderOptions {
  /** The repository: a worktree (with `.git` directory or file) or a bare repository. */
  readonly dir: string;
  /** File system (default Node's). */
  readonly fs?: GitFileSystem;
  /** Files larger than this many bytes are `too_large` (default 1 MiB). */
  readonly maxBytes?: number;
  /** Reads kept in memory, keyed by (commit id, path) (default 512). */
  readonly cacheSize?: number;
  /** Revision read when a citation names none (default `HEAD`). */
  readonly ref?: string;
}

/** Upper bound on cached text, whatever `cacheSize` says. */
const MAX_CACHED_BYTES = 64 * 1024 * 1024;

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new RepomemError('INVALID_ARGUMENT', `createGitCitationReader: ${name} must be a positive integer`, {
      details: { [name]: value },
    });
  }
  return value;
}

/** `text`, or `binary` when the bytes hold a NUL or are not valid UTF-8 (core's rule). */
function decodeBlob(bytes: Uint8Array, blobSha: string, revision: string): CitationSource {
  if (isBinaryContent(bytes)) return { kind: 'binary', revision };
  return { kind: 'text', text: new TextDecoder('utf-8').decode(bytes), blobSha, revision };
}

/**
 * A {@link CitationReader} over a local git repository. `ref` (the citation's, else `options.ref`)
 * may be `HEAD` (default), a branch or
 * tag, a full or abbreviated commit id, with optional `~N` / `^N`; it is resolved to a commit on
 * every read (so a moving branch is followed) and the result is cached by (commit, path).
 * `location.repo` is not used: the reader is bound to `dir`. A missing path, a directory, a
 * symlink or a submodule is `missing`; `revision` is the commit id and `blobSha` the blob id.
 * Throws `NOT_FOUND` for an unknown ref (naming it) or a directory that is not a repository,
 * `INVALID_PATH` for a bad path.
 *
 * `mapLines` follows cited lines between two revisions with the git CLI (`git diff -M
 * --unified=0`, renames detected, one diff per pair of commits, cached); it is available on
 * Node's file system only and answers `unknown` for a revision the repository does not have.
 *
 * Branch scope: `ancestry` lists the head's history once with `git rev-list` (cached by head
 * commit, abbreviated ids matched by prefix; Node's file system only, else `unknown`), and
 * `branches` reads the branch HEAD is on and the default branch (`origin/HEAD`, else `main` or
 * `master`) from the repository's files.
 */
export function createGitCitationReader(options: GitCitationReaderOptions): CitationReader {
  if (options === null || typeof options !== 'object' || typeof options.dir !== 'string' || options.dir === '') {
    throw new RepomemError(
      'INVALID_ARGUMENT',
      'createGitCitationReader: dir must be a non-empty path to a git repository',
    );
  }
  const fs = options.fs ?? nodeFileSystem;
  const maxBytes = positiveInteger(options.maxBytes, DEFAULT_GIT_CITATION_MAX_BYTES, 'maxBytes');
  const cacheSize = positiveInteger(options.cacheSize, DEFAULT_GIT_CITATION_CACHE_SIZE, 'cacheSize');
  const defaultRef = options.ref;
  if (defaultRef !== undefined && (typeof defaultRef !== 'string' || defaultRef.trim() === '')) {
    throw new RepomemError('INVALID_ARGUMENT', 'createGitCitationReader: ref must be a non-empty revision', {
      details: { ref: defaultRef },
    });
  }
  const cache = new LRUCache<string, CitationSource>({
    max: cacheSize,
    maxSize: MAX_CACHED_BYTES,
    sizeCalculation: (source) => (source.kind === 'text' ? source.text.length * 2 + 128 : 128),
  });
  let opened: Promise<{ layout: GitRepositoryLayout; objects: GitObjectStore }> | undefined;
  const open = () => {
    opened ??= locateRepository(fs, options.dir).then(
      (layout) => ({ layout, objects: new GitObjectStore(fs, layout.commondir, false) }),
      (error: unknown) => {
        opened = undefined; // not cached: the repository may be created later
        throw error;
      },
    );
    return opened;
  };

  const inflight = new Map<string, Promise<CitationSource>>();
  const mapper = fs === nodeFileSystem ? createGitLineMapper(options.dir) : undefined;
  const history = fs === nodeFileSystem ? createGitHistory(options.dir) : undefined;
  const resolve = async (ref: string | undefined): Promise<string> => {
    const { layout, objects } = await open();
    return resolveCitationRevision(fs, layout, objects, ref ?? defaultRef);
  };

  return {
    name: 'git',
    async ancestry(request: AncestryRequest): Promise<AncestryAnswer> {
      if (history === undefined)
        return { kind: 'unknown', reason: 'the history needs the git CLI on a real file system' };
      let headCommit: string;
      try {
        headCommit = await resolve(request.head);
      } catch (error) {
        if (error instanceof RepomemError && error.code === 'NOT_FOUND')
          return { kind: 'unknown', reason: error.message };
        throw error;
      }
      const found = await history.of(headCommit);
      if (!found.ok) return { kind: 'unknown', reason: found.reason };
      return {
        kind: 'known',
        headCommit,
        contained: new Set(request.commits.filter((commit) => found.commits.has(commit))),
      };
    },
    async branches(): Promise<BranchNames> {
      const { layout } = await open();
      const names = await readBranchNames(fs, layout);
      // A reader pinned to a branch (`git:<dir>#feature`) is on that branch.
      if (defaultRef === undefined || defaultRef === 'HEAD') return names;
      const pinned = defaultRef.startsWith('refs/heads/') ? defaultRef.slice('refs/heads/'.length) : defaultRef;
      const { current: _current, ...rest } = names;
      return /^[0-9a-f]{7,64}$/.test(pinned) || /[~^]/.test(pinned) ? rest : { ...rest, current: pinned };
    },
    async mapLines(request: LineMapRequest): Promise<LineMapping> {
      if (mapper === undefined)
        return { kind: 'unknown', reason: 'line mapping needs the git CLI on a real file system' };
      const path = normalizeDocumentPath(request.path);
      let from: string;
      let to: string;
      try {
        from = await resolve(request.from);
        to = await resolve(request.to);
      } catch (error) {
        if (error instanceof RepomemError && error.code === 'NOT_FOUND')
          return { kind: 'unknown', reason: error.message };
        throw error;
      }
      return mapper.map(from, to, path, request.line_start, request.line_end);
    },
    async read(location: CitationLocation): Promise<CitationSource> {
      const path = normalizeDocumentPath(location.path);
      const { layout, objects } = await open();
      const revision = await resolveCitationRevision(fs, layout, objects, location.ref ?? defaultRef);
      const key = `${revision}\0${path}`;
      const cached = cache.get(key);
      if (cached !== undefined) return cached;
      // Concurrent reads of one (commit, path) (many memories citing one file) share one lookup.
      let pending = inflight.get(key);
      if (pending === undefined) {
        pending = (async (): Promise<CitationSource> => {
          const commit = await objects.readCommit(revision);
          const found = await lookupPath(objects, commit.tree, path);
          if (found.status !== 'found' || found.entry.kind !== 'file') return { kind: 'missing', revision };
          const bytes = await objects.size(found.entry.oid);
          return bytes > maxBytes
            ? { kind: 'too_large', revision, bytes }
            : decodeBlob(await objects.readTyped(found.entry.oid, 'blob'), found.entry.oid, revision);
        })();
        inflight.set(key, pending);
        pending.then(
          (source) => {
            cache.set(key, source);
            inflight.delete(key);
          },
          () => inflight.delete(key),
        );
      }
      return pending;
    },
  };
}
