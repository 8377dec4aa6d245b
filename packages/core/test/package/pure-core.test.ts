// Why: core does no I/O (no file system, process or network code), so it runs anywhere and store
// packages own every side effect. Biome's restricted-imports rule guards the sources; this test
// guards what is shipped: every module the built entry imports must be one of the few allowed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../support/package-root.js';

/** What core's built entry may import: hashing, and its three declared dependencies. */
const ALLOWED = new Set(['crypto', 'node:crypto', 'zod', 'zod/mini', 'zod/locales', 'lru-cache', 'p-retry']);

function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']/gm)) {
    found.push(match[1] as string);
  }
  for (const match of source.matchAll(/^\s*import\s*["']([^"']+)["']/gm)) found.push(match[1] as string);
  for (const match of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push(match[1] as string);
  for (const match of source.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) found.push(match[1] as string);
  return found;
}

describe('core does no I/O', () => {
  const dist = join(packageRoot, 'dist');
  const files = readdirSync(dist).filter((name) => /\.(c?js)$/.test(name));

  it('the built entry and its chunks import only hashing and core’s own dependencies', () => {
    expect(files.length).toBeGreaterThan(0);
    const outside: string[] = [];
    for (const file of files) {
      for (const specifier of importsOf(readFileSync(join(dist, file), 'utf8'))) {
        if (specifier.startsWith('./')) continue;
        if (!ALLOWED.has(specifier)) outside.push(`${file}: ${specifier}`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('declares only zod, lru-cache and p-retry as dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies ?? {}).sort()).toEqual(['lru-cache', 'p-retry', 'zod']);
  });
});
