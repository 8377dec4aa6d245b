// Why: `dir:<path>` names a memory directory (a store) or a working tree (a citation source) in
// one string, so the CLI, the MCP server and library code open it through core's registry, which
// loads this package the first time the scheme is used.
import { resolve } from 'node:path';
import { type CitationReaderScheme, RepomemError, type SchemeContext, type StoreScheme } from '@repomem/core';
import { createDirectoryCitationReader } from './directory-reader.js';
import { openDirectoryStore } from './directory-store.js';

/** A parsed `dir:` spec. */
export interface DirectorySpecTarget {
  /** Absolute path (relative specs resolve against the context's working directory). */
  readonly root: string;
}

function parseDirectorySpec(rest: string, context: SchemeContext): DirectorySpecTarget {
  if (rest === '') throw new RepomemError('INVALID_ARGUMENT', 'a directory path is required after "dir:"');
  return { root: resolve(context.cwd, rest) };
}

/**
 * The `dir:<path>` store scheme: a memory directory, relative paths resolved against the
 * context's working directory. Opening a missing directory is `NOT_FOUND` unless the context asks
 * to `create` it (never when `readOnly`). Labels are `dir:<absolute path>`.
 */
export const storeScheme: StoreScheme<DirectorySpecTarget> = {
  scheme: 'dir',
  grammar: 'dir:<path>',
  parse: parseDirectorySpec,
  label: (target) => `dir:${target.root}`,
  open: (target, context) => openDirectoryStore({ root: target.root, create: context.create && !context.readOnly }),
};

/**
 * The `dir:<worktree>` citation-reader scheme: the files of a working tree as they are now (see
 * {@link createDirectoryCitationReader}). A working tree has one revision, so a `ref` is refused
 * with `INVALID_ARGUMENT`.
 */
export const citationReaderScheme: CitationReaderScheme<DirectorySpecTarget> = {
  scheme: 'dir',
  grammar: 'dir:<worktree>',
  parse: parseDirectorySpec,
  label: (target) => `dir:${target.root}`,
  open: async (target, context) => {
    if (context.ref !== undefined) {
      throw new RepomemError(
        'INVALID_ARGUMENT',
        `the dir: citation source reads the working tree ${target.root} as it is; ref ${JSON.stringify(context.ref)} needs a git: or github source`,
        { details: { ref: context.ref } },
      );
    }
    return createDirectoryCitationReader({ root: target.root });
  },
};
