// Why: core refuses a new path that is a case or Unicode-normalisation twin of a stored one (on
// macOS or Windows `memory.md` next to `MEMORY.md` would overwrite it). The kit would list the
// tree under each new path's deepest existing directory to find candidates; a directory answers
// by reading only the directories on the path (one readdir per level), as this store always did.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathFoldKey } from '@repomem/core';
import type { DirectoryListing } from './directory-listing.js';

async function namesIn(directory: string): Promise<string[] | undefined> {
  try {
    return await readdir(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Candidates for the twins of `path`: walking its levels under `root`, at the first level whose
 * exact name is missing, every sibling that folds to the same name (a file as its path, a
 * directory as the documents under it, or a path under it when it holds none, so an empty twin
 * directory is still refused). Levels above exist exactly, so no twin can be there.
 */
async function candidatesOf(root: string, listing: DirectoryListing, path: string): Promise<string[]> {
  const segments = path.split('/');
  let base = '';
  for (const [index, segment] of segments.entries()) {
    const names = await namesIn(join(root, base));
    if (names === undefined) return [];
    if (names.includes(segment)) {
      base += `${segment}/`;
      continue;
    }
    const key = pathFoldKey(segment);
    const out: string[] = [];
    for (const name of names) {
      if (pathFoldKey(name) !== key) continue;
      const twin = `${base}${name}`;
      if ((await namesIn(join(root, twin))) === undefined) {
        out.push(twin); // a file (or anything that is not a directory)
        continue;
      }
      const under = listing.paths(`${twin}/`);
      out.push(...(under.length > 0 ? under : [`${twin}/${segments.slice(index + 1).join('/') || segment}`]));
    }
    return out;
  }
  return [];
}

/** The driver's `twins` answer for documents: candidates for every path of `paths`. */
export async function directoryTwinCandidates(
  root: string,
  listing: DirectoryListing,
  paths: readonly string[],
): Promise<string[]> {
  const out = new Set<string>();
  for (const path of paths) for (const candidate of await candidatesOf(root, listing, path)) out.add(candidate);
  return [...out];
}
