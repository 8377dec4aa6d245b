// Why: verified memories are checked against code, and the CLI must say which code: a working
// tree (`dir:`), a git repository at a revision (`git:<dir>[#ref]`, read from objects, no
// checkout) or GitHub's contents API (`github`). `--source` is a citation-reader spec resolved by
// the CLI's registry like a store spec; this module applies the default (the git repository
// around the working directory, else the directory itself) and `--ref`, and opens the reader.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  type CitationReader,
  type CitationReaderScheme,
  RepomemError,
  type ResolvedSpec,
  redactSpec,
} from '@repomem/core';
import type { DirectorySpecTarget } from '@repomem/store-fs';
import type { GitCitationTarget } from '@repomem/store-git';
import { CliUsageError } from './errors.js';
import type { CliIo } from './io.js';
import { cliRegistry } from './store-registry.js';

/** Where citations are read from: the resolved `--source` and the `--ref` to read at. */
export interface ChosenCitationSource {
  /** The spec parsed by its scheme (`--ref` already applied to a git spec). */
  readonly resolved: ResolvedSpec<CitationReaderScheme>;
  /** `--ref`: the revision read whenever a citation names none. */
  readonly ref?: string;
  /** Text form for messages: `dir:/abs`, `git:/abs#ref`, `github#ref`. */
  readonly label: string;
  /** Working directory and environment the reader opens with (`GITHUB_TOKEN`, `GITHUB_API_URL`). */
  readonly context: Pick<CliIo, 'env' | 'cwd'>;
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

const REGISTRY_PREFIX = /^invalid citation source spec "(?:[^"\\]|\\.)*": /;

async function resolveSource(
  source: string | undefined,
  io: Pick<CliIo, 'env' | 'cwd'>,
): Promise<ResolvedSpec<CitationReaderScheme>> {
  if (source === undefined || source === '') {
    // `<scheme>:.` against the directory: a path is never re-parsed (a `#` in it stays a `#`).
    const root = findGitRoot(io.cwd);
    return cliRegistry.resolveCitationReaderSpec(root === undefined ? 'dir:.' : 'git:.', {
      cwd: root ?? io.cwd,
      env: io.env,
    });
  }
  try {
    return await cliRegistry.resolveCitationReaderSpec(source, { cwd: io.cwd, env: io.env });
  } catch (error) {
    if (error instanceof RepomemError && error.code === 'INVALID_ARGUMENT') {
      const problem = error.message.replace(REGISTRY_PREFIX, '');
      throw new CliUsageError(`invalid --source ${JSON.stringify(redactSpec(source))}: ${problem}`);
    }
    throw error;
  }
}

/**
 * Resolve `--source` (absent: git at the repository around `cwd`, else `dir:` cwd) and apply
 * `--ref`, which wins over a `#ref` in a git spec. Throws {@link CliUsageError} naming a bad
 * `--source` (the known schemes listed for an unknown one), or a `--ref` given for a directory
 * (a working tree has one revision).
 */
export async function chooseCitationSource(
  source: string | undefined,
  ref: string | undefined,
  io: Pick<CliIo, 'env' | 'cwd'>,
): Promise<ChosenCitationSource> {
  const resolved = await resolveSource(source, io);
  const context = { cwd: io.cwd, env: io.env };
  if (ref === undefined || ref === '') return { resolved, label: resolved.label, context };
  switch (resolved.scheme.scheme) {
    case 'dir':
      throw new CliUsageError(
        `--ref ${ref} needs a git or github source (the citation source is the directory ${(resolved.target as DirectorySpecTarget).root})`,
      );
    case 'git': {
      const target: GitCitationTarget = { dir: (resolved.target as GitCitationTarget).dir, ref };
      const label = resolved.scheme.label(target);
      return { resolved: { ...resolved, target, label }, ref, label, context };
    }
    default:
      return { resolved, ref, label: `${resolved.label}#${ref}`, context };
  }
}

/**
 * Open the reader of `chosen` for `repo` (the repository a bare `github` source reads). The
 * GitHub reader uses `$GITHUB_TOKEN` (optional for public repositories) and `$GITHUB_API_URL`
 * (GitHub Enterprise; default api.github.com); the package of each reader is loaded on demand.
 */
export function openCitationSource(chosen: ChosenCitationSource, repo: string): Promise<CitationReader> {
  return cliRegistry.openCitationReader(chosen.resolved, {
    cwd: chosen.context.cwd,
    env: chosen.context.env,
    repo,
    ...(chosen.ref === undefined ? {} : { ref: chosen.ref }),
  });
}
