// Why: `dir:` specs are how the CLI, the MCP server and library users open a memory directory or
// a working tree; these tests go through core's registry exactly as they do (the default registry
// loads this package by name) and check parsing, labels, create/readOnly and the errors.
import { mkdir, realpath, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultStoreRegistry, type MemoryStore, openCitationReader, openStore, StoreRegistry } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as storeFs from '../src/index.js';
import { citationReaderScheme, storeScheme } from '../src/index.js';
import { expectRepomemError, freshDirectory, removeDirectory } from './support.js';

let workspace: string;
const opened: MemoryStore[] = [];

beforeEach(async () => {
  workspace = await realpath(await freshDirectory('repomem-scheme-'));
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  await removeDirectory(workspace);
});

async function track(store: Promise<MemoryStore>): Promise<MemoryStore> {
  const value = await store;
  opened.push(value);
  return value;
}

describe('dir: store scheme', () => {
  it('is what the default registry loads for dir:, by package name', async () => {
    const resolved = await defaultStoreRegistry.resolveStoreSpec('dir:memory', { cwd: workspace });
    expect(resolved.scheme.grammar).toBe('dir:<path>');
    expect(resolved.label).toBe(`dir:${join(workspace, 'memory')}`);
    expect(resolved.target).toEqual({ root: join(workspace, 'memory') });
  });

  it('opens a relative path against cwd, creating it only when asked', async () => {
    await expectRepomemError(() => openStore('dir:memory', { cwd: workspace }), 'NOT_FOUND', /memory/);
    await expectRepomemError(
      () => openStore('dir:memory', { cwd: workspace, create: true, readOnly: true }),
      'NOT_FOUND',
    );
    await expect(stat(join(workspace, 'memory'))).rejects.toMatchObject({ code: 'ENOENT' });
    const store = await track(openStore('dir:memory', { cwd: workspace, create: true }));
    expect(store.name).toBe('directory');
    expect((await stat(join(workspace, 'memory'))).isDirectory()).toBe(true);
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('# Memory\n') }]);
    await store.state.put('sync/acme/app', { cursor: 1 });
    const again = await track(openStore(`dir:${join(workspace, 'memory')}`, { readOnly: true }));
    expect((await again.list()).map((entry) => entry.path)).toEqual(['MEMORY.md']);
    expect((await again.state.get('sync/acme/app'))?.value).toEqual({ cursor: 1 });
  });

  it('refuses an empty path and a path that is a file, naming the spec', async () => {
    await expectRepomemError(() => openStore('dir:', { cwd: workspace }), 'INVALID_ARGUMENT', /"dir:".*dir:<path>/);
    await writeFile(join(workspace, 'file'), 'x');
    await expectRepomemError(() => openStore('dir:file', { cwd: workspace }), 'NOT_A_DIRECTORY', /file/);
  });

  it('registers in a registry of its own, without the built-in loaders', async () => {
    const registry = new StoreRegistry({ builtins: false });
    registry.registerStoreScheme(storeScheme);
    await mkdir(join(workspace, 'm'));
    const store = await track(registry.openStore('DIR:m', { cwd: workspace }));
    expect(store.name).toBe('directory');
  });

  it('exports both schemes from the package entry', () => {
    expect(storeFs.storeScheme.scheme).toBe('dir');
    expect(storeFs.citationReaderScheme.scheme).toBe('dir');
  });
});

describe('dir: citation-reader scheme', () => {
  it('reads a working tree through the default registry', async () => {
    await writeFile(join(workspace, 'a.ts'), 'hello\n');
    const resolved = await defaultStoreRegistry.resolveCitationReaderSpec('dir:.', { cwd: workspace });
    expect(resolved.label).toBe(`dir:${workspace}`);
    const reader = await openCitationReader('dir:.', { cwd: workspace });
    expect(reader.name).toBe('directory');
    expect(await reader.read({ repo: 'acme/app', path: 'a.ts' })).toEqual({
      kind: 'text',
      text: 'hello\n',
      blobSha: 'ce013625030ba8dba906f756967f9e9ca394464a',
      revision: 'worktree',
    });
  });

  it('refuses a ref (a working tree has one revision) and an empty path', async () => {
    await expectRepomemError(
      () => openCitationReader('dir:.', { cwd: workspace, ref: 'main' }),
      'INVALID_ARGUMENT',
      /"main".*git: or github/,
    );
    await expectRepomemError(
      () => openCitationReader('dir:', { cwd: workspace }),
      'INVALID_ARGUMENT',
      /dir:<worktree>/,
    );
    expect(citationReaderScheme.label({ root: '/x' })).toBe('dir:/x');
  });
});
