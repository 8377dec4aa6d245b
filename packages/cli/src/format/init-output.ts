// Why: renders what `repomem init` did (text and `--json`) from the facade's InitResult, as a
// pure function the unit tests can pin down.
import { join, resolve } from 'node:path';
import type { InitResult } from '@repomem/core';

/** Text output: one `created <path>` line per new file, or a single "already initialised" line. */
export function formatInitText(result: InitResult, displayDir: string): string {
  if (result.created.length === 0) {
    return `memory tree already initialised in ${displayDir} (nothing created)\n`;
  }
  const lines = result.created.map((path) => `created ${join(displayDir, ...path.split('/'))}`);
  lines.push(
    `initialised memory tree in ${displayDir} (${result.created.length} created, ${result.existing.length} already present)`,
  );
  return `${lines.join('\n')}\n`;
}

/** `--json` object: `{ ok: true, memoryDir, created, existing }` (paths relative to the memory directory). */
export function initJson(result: InitResult, displayDir: string): Record<string, unknown> {
  return {
    ok: true,
    memoryDir: resolve(displayDir),
    created: [...result.created],
    existing: [...result.existing],
  };
}
