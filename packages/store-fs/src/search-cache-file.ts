// Why: a one-shot `repomem search --dir` keeps its analysis cache in a file so the next process
// need not re-read unchanged documents. The file must never appear inside the memory tree (a Sepo
// workflow commits whatever is there), so it lives in the user's cache directory, named after the
// memory directory's real path. Writes are atomic (temp file, then rename), so concurrent
// searches never read half a cache; a missing, oversized or unreadable file reads as no cache.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type AnalysisCacheStorage, MAX_ANALYSIS_CACHE_BYTES } from '@repomem/core';

/** Most cache files kept in {@link searchCacheDirectory} (each at most `MAX_ANALYSIS_CACHE_BYTES`). */
export const MAX_CACHE_FILES = 32;

/** Environment variables read by {@link searchCacheFile}. */
export interface SearchCacheEnvironment {
  readonly XDG_CACHE_HOME?: string | undefined;
  /** `off` disables the cache. */
  readonly REPOMEM_SEARCH_CACHE?: string | undefined;
}

/**
 * The directory holding search caches: `$XDG_CACHE_HOME/repomem/search`, else
 * `~/.cache/repomem/search`.
 */
export function searchCacheDirectory(env: SearchCacheEnvironment = process.env): string {
  const base =
    env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'repomem', 'search');
}

/**
 * The analysis cache of the memory directory whose real path is `root` (a file in
 * {@link searchCacheDirectory}, never inside the tree), or `undefined` when
 * `REPOMEM_SEARCH_CACHE=off`. Pass it as `searchStore`'s `analysisCache`.
 */
export function searchCacheFile(
  root: string,
  env: SearchCacheEnvironment = process.env,
): AnalysisCacheStorage | undefined {
  if (env.REPOMEM_SEARCH_CACHE === 'off') return undefined;
  const directory = searchCacheDirectory(env);
  const name = createHash('sha256').update(root).digest('hex').slice(0, 32);
  const path = join(directory, `${name}.bin`);
  return {
    async load() {
      try {
        if ((await stat(path)).size > MAX_ANALYSIS_CACHE_BYTES) return undefined;
        return new Uint8Array(await readFile(path));
      } catch {
        return undefined;
      }
    },
    async save(bytes) {
      await mkdir(directory, { recursive: true, mode: 0o700 });
      const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(temporary, bytes, { mode: 0o600 });
        await rename(temporary, path);
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        throw error;
      }
      await pruneCaches(directory, path);
    },
  };
}

/**
 * Keep the cache directory bounded: at most {@link MAX_CACHE_FILES} caches (one per memory
 * directory searched), the least recently written removed first, and temp files abandoned by a
 * killed process removed after an hour. Best effort: a file another process removes first is fine.
 */
async function pruneCaches(directory: string, keep: string): Promise<void> {
  try {
    const names = await readdir(directory);
    const now = Date.now();
    const caches: Array<{ path: string; written: number }> = [];
    for (const name of names) {
      const path = join(directory, name);
      const stats = await stat(path).catch(() => undefined);
      if (stats === undefined) continue;
      if (name.endsWith('.tmp')) {
        if (now - stats.mtimeMs > 3_600_000) await unlink(path).catch(() => undefined);
      } else if (name.endsWith('.bin') && path !== keep) {
        caches.push({ path, written: stats.mtimeMs });
      }
    }
    caches.sort((a, b) => b.written - a.written);
    for (const old of caches.slice(MAX_CACHE_FILES - 1)) await unlink(old.path).catch(() => undefined);
  } catch {
    // Pruning is an optimisation; a listing that fails is retried on the next save.
  }
}
