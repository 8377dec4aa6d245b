// Why: renders what `repomem init` did (text and `--json`) from the facade's InitResult, as a
// pure function the unit tests can pin down.
import { join, resolve } from 'node:path';
import type { InitResult } from '@repomem/core';

/**
 * Where the tree was seeded: a memory directory as the user named it, or a store named by its
 * spec (documents are then named by their path inside the store).
 */
export type InitLocation = string | { readonly store: string };

/** Text output: one `created <path>` line per new file, or a single "already initialised" line. */
export function formatInitText(result: InitResult, location: InitLocation): string {
  const label = typeof location === 'string' ? location : location.store;
  if (result.created.length === 0) {
    return `memory tree already initialised in ${label} (nothing created)\n`;
  }
  const lines = result.created.map(
    (path) => `created ${typeof location === 'string' ? join(location, ...path.split('/')) : path}`,
  );
  lines.push(
    `initialised memory tree in ${label} (${result.created.length} created, ${result.existing.length} already present)`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * `--json` object: `{ ok: true, memoryDir, created, existing }` (paths relative to the memory
 * directory); for a store, `store` (its spec) replaces `memoryDir`.
 */
export function initJson(result: InitResult, location: InitLocation): Record<string, unknown> {
  return {
    ok: true,
    ...(typeof location === 'string' ? { memoryDir: resolve(location) } : { store: location.store }),
    created: [...result.created],
    existing: [...result.existing],
  };
}
