// Why: verified memories are checked against code, so the server needs to know which code: an
// open reader, a citation-source spec, or by default the git repository around the working
// directory (else the directory itself). The reader opens on first use, so a server whose
// clients never read citations never loads a reader package.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { type CitationReader, defaultStoreRegistry, type StoreRegistry } from '@repomem/core';

/** A citation reader opened on demand, and whether it reaches outside the machine. */
export interface CitationSource {
  /** The reader (opened on the first call; a failure to open is thrown to that call and retried next time). */
  reader(): Promise<CitationReader>;
  /** True when citations are read from GitHub (the tools that read them reach an external system). */
  readonly openWorld: boolean;
  /** Text form for messages and server instructions. */
  readonly label: string;
}

/** The nearest directory at or above `start` holding `.git`. */
function findGitRoot(start: string): string | undefined {
  let current = resolve(start);
  for (;;) {
    if (existsSync(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Options of {@link citationSource}. */
export interface CitationSourceOptions {
  readonly source: CitationReader | string | undefined;
  readonly registry: StoreRegistry | undefined;
  readonly repo: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>> | undefined;
}

/** The citation source of a server (see the module comment for the default). */
export function citationSource(options: CitationSourceOptions): CitationSource {
  const { source } = options;
  if (source !== undefined && typeof source !== 'string') {
    return { reader: async () => source, openWorld: false, label: 'the reader given by the application' };
  }
  const registry = options.registry ?? defaultStoreRegistry;
  let spec = source;
  let cwd = options.cwd;
  if (spec === undefined || spec === '') {
    const root = findGitRoot(options.cwd);
    spec = root === undefined ? 'dir:.' : 'git:.';
    cwd = root ?? options.cwd;
  }
  const scheme = spec.split(/[:#]/, 1)[0]?.toLowerCase() ?? '';
  let opened: Promise<CitationReader> | undefined;
  const chosen = spec;
  return {
    reader() {
      opened ??= registry
        .openCitationReader(chosen, {
          cwd,
          repo: options.repo,
          ...(options.env === undefined ? {} : { env: options.env }),
        })
        .catch((error: unknown) => {
          opened = undefined;
          throw error;
        });
      return opened;
    },
    openWorld: scheme === 'github',
    label: chosen === 'dir:.' || chosen === 'git:.' ? `${chosen.slice(0, -1)}${cwd}` : chosen,
  };
}

/**
 * A reader that opens `source` on its first read (what the verified-memory service is given).
 * It maps lines, resolves revision names to commits (GitHub) and answers branch scope's history
 * questions when the opened reader can (git, GitHub), else answers `unknown`.
 */
export function lazyReader(source: CitationSource): CitationReader {
  return {
    name: source.label,
    read: async (location) => (await source.reader()).read(location),
    mapLines: async (request) => {
      const reader = await source.reader();
      return reader.mapLines === undefined
        ? { kind: 'unknown', reason: `the ${reader.name} citation reader cannot map lines between revisions` }
        : reader.mapLines(request);
    },
    // The commit a branch names (GitHub), so verification records it; others read at the ref as given.
    resolveRevision: async (request) => {
      const reader = await source.reader();
      return reader.resolveRevision === undefined ? undefined : reader.resolveRevision(request);
    },
    // Branch scope: the history and branch names of the opened reader, when it has them.
    ancestry: async (request) => {
      const reader = await source.reader();
      return reader.ancestry === undefined
        ? { kind: 'unknown', reason: `the ${reader.name} citation reader cannot read the git history` }
        : reader.ancestry(request);
    },
    branches: async (repo) => {
      const reader = await source.reader();
      return reader.branches === undefined ? {} : reader.branches(repo);
    },
  };
}
