// Why: verified memories are checked against code, and the CLI must say which code: a working
// tree (`dir:`), a git repository at a revision (`git:<dir>[#ref]`, read from objects, no
// checkout) or GitHub's contents API (`github`). One module parses `--source`/`--ref`, applies the
// default (the git repository around the working directory, else the directory itself) and
// builds the reader.
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import {
  type CitationLocation,
  type CitationReader,
  type CitationSource,
  createDirectoryCitationReader,
  createGitHubCitationReader,
  RepomemError,
} from '@repomem/core';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';

/** Where citations are read from. `ref` is the revision (git and GitHub only). */
export type CitationSourceSpec =
  | { readonly kind: 'dir'; readonly root: string }
  | { readonly kind: 'git'; readonly dir: string; readonly ref?: string }
  | { readonly kind: 'github'; readonly ref?: string };

const SOURCE_GRAMMAR = 'expected dir:<worktree>, git:<repo-dir>[#<ref>] or github';

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** The nearest directory at or above `start` holding `.git` (a directory or a worktree's file). */
export function findGitRoot(start: string): string | undefined {
  let current = resolve(start);
  for (;;) {
    if (existsSync(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/**
 * Parse `--source` (absent: git at the repository around `cwd`, else `dir:` cwd) and apply
 * `--ref` (which wins over a `#ref` in a git spec). Throws {@link CliUsageError} naming the bad
 * value, or when `--ref` is given for a directory (a working tree has one revision).
 */
export function chooseCitationSource(
  source: string | undefined,
  ref: string | undefined,
  cwd: string,
): CitationSourceSpec {
  let spec: CitationSourceSpec;
  if (source === undefined || source === '') {
    const root = findGitRoot(cwd);
    spec = root === undefined ? { kind: 'dir', root: resolve(cwd) } : { kind: 'git', dir: root };
  } else if (source === 'github') {
    spec = { kind: 'github' };
  } else if (source.startsWith('dir:') && source.length > 4) {
    spec = { kind: 'dir', root: absolute(source.slice(4), cwd) };
  } else if (source.startsWith('git:') && source.length > 4) {
    const rest = source.slice(4);
    const hash = rest.lastIndexOf('#');
    const dir = hash === -1 ? rest : rest.slice(0, hash);
    const gitRef = hash === -1 ? undefined : rest.slice(hash + 1);
    if (dir === '' || gitRef === '')
      throw new CliUsageError(`invalid --source ${JSON.stringify(source)}: ${SOURCE_GRAMMAR}`);
    spec = { kind: 'git', dir: absolute(dir, cwd), ...(gitRef === undefined ? {} : { ref: gitRef }) };
  } else {
    throw new CliUsageError(`invalid --source ${JSON.stringify(source)}: ${SOURCE_GRAMMAR}`);
  }
  if (ref !== undefined && ref !== '') {
    if (spec.kind === 'dir') {
      throw new CliUsageError(
        `--ref ${ref} needs a git or github source (the citation source is the directory ${spec.root})`,
      );
    }
    spec = { ...spec, ref };
  }
  return spec;
}

/** Text form for messages: `dir:/abs`, `git:/abs#ref`, `github#ref`. */
export function describeCitationSource(spec: CitationSourceSpec): string {
  const ref = spec.kind === 'dir' || spec.ref === undefined ? '' : `#${spec.ref}`;
  switch (spec.kind) {
    case 'dir':
      return `dir:${spec.root}`;
    case 'git':
      return `git:${spec.dir}${ref}`;
    case 'github':
      return `github${ref}`;
  }
}

/** A reader that reads at `ref` whenever the caller names no revision. */
function atRef(reader: CitationReader, ref: string | undefined): CitationReader {
  if (ref === undefined) return reader;
  return {
    name: reader.name,
    read: (location: CitationLocation): Promise<CitationSource> =>
      reader.read({ ...location, ref: location.ref ?? ref }),
  };
}

/**
 * Build the reader for `spec`. GitHub uses `$GITHUB_TOKEN` (optional for public repositories)
 * and `$GITHUB_API_URL` (GitHub Enterprise; default api.github.com). The git reader's package is
 * loaded on demand.
 */
export async function openCitationReader(spec: CitationSourceSpec, env: CliIo['env']): Promise<CitationReader> {
  switch (spec.kind) {
    case 'dir':
      return createDirectoryCitationReader({ root: spec.root });
    case 'git': {
      if (!existsSync(spec.dir)) {
        throw new RepomemError('NOT_FOUND', `citation source does not exist: ${spec.dir}`, {
          details: { dir: spec.dir },
        });
      }
      const { createGitCitationReader } = await import('@repomem/store-git');
      return atRef(createGitCitationReader({ dir: spec.dir }), spec.ref);
    }
    case 'github': {
      const token = env.GITHUB_TOKEN;
      const baseUrl = env.GITHUB_API_URL;
      return atRef(
        createGitHubCitationReader({
          ...(token === undefined || token === '' ? {} : { token }),
          ...(baseUrl === undefined || baseUrl === '' ? {} : { baseUrl }),
        }),
        spec.ref,
      );
    }
  }
}
