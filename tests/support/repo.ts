// Why: the repository tests locate files from the repository root and read manifests; one place
// for both.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Scratch space inside the repository (gitignored), so generated files resolve workspace packages. */
export const WORK_DIR = join(REPO_ROOT, 'tests', '.work');

/** A parsed package.json (only the fields these tests read). */
export interface Manifest {
  readonly name?: string;
  readonly version?: string;
  readonly private?: boolean;
  readonly engines?: { readonly node?: string };
  readonly [field: string]: unknown;
}

/** Parse a JSON file. */
export function readJson(file: string): Manifest {
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}
