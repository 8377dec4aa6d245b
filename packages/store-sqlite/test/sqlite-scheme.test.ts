// Why: `sqlite:<path>` is how the CLI, the MCP server and library users name this store through
// core's registry; these tests open real files through a registry holding this package's scheme.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { StoreRegistry } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SqliteStore, storeScheme } from '../src/index.js';
import { expectRepomemError, freshDirectory, removeDirectory } from './support.js';

let dir: string;
let registry: StoreRegistry;

beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-scheme-');
  registry = new StoreRegistry({ builtins: false });
  registry.registerStoreScheme(storeScheme);
});
afterEach(async () => {
  await removeDirectory(dir);
});

describe('the sqlite: scheme', () => {
  it('resolves a relative path against the working directory and labels the absolute path', async () => {
    const resolved = await registry.resolveStoreSpec('sqlite:.repomem/repomem.db', { cwd: dir, env: {} });
    expect(resolved.target).toEqual({ path: join(dir, '.repomem', 'repomem.db') });
    expect(resolved.label).toBe(`sqlite:${join(dir, '.repomem', 'repomem.db')}`);
    const absolute = await registry.resolveStoreSpec(`sqlite:${join(dir, 'a', '..', 'b.db')}`, { cwd: '/', env: {} });
    expect(absolute.label).toBe(`sqlite:${join(dir, 'b.db')}`);
    expect(storeScheme.grammar).toBe('sqlite:<path>');
  });

  it('keeps sqlite::memory: as a private in-memory database', async () => {
    const resolved = await registry.resolveStoreSpec('sqlite::memory:', { cwd: dir, env: {} });
    expect(resolved.label).toBe('sqlite::memory:');
    const store = (await registry.openStore(resolved, { cwd: dir, repo: 'acme/rocket' })) as SqliteStore;
    expect(store.file).toBe(':memory:');
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('- x\n') }]);
    expect(await store.list()).toHaveLength(1);
    await store.close();
  });

  it('refuses an empty path with INVALID_ARGUMENT naming the spec and the grammar', async () => {
    await expectRepomemError(
      () => registry.resolveStoreSpec('sqlite:', { cwd: dir, env: {} }),
      'INVALID_ARGUMENT',
      'sqlite:',
      'sqlite:<path>',
    );
  });

  it('opens the file scoped to the context repository, creating it and its directory', async () => {
    const store = (await registry.openStore('sqlite:nested/memory.db', {
      cwd: dir,
      repo: 'acme/rocket',
    })) as SqliteStore;
    expect(store.name).toBe('sqlite');
    expect(store.repo).toBe('acme/rocket');
    expect(store.file).toBe(join(dir, 'nested', 'memory.db'));
    expect(existsSync(store.file)).toBe(true);
    await store.state.put('k', 1);
    await store.close();
    const other = (await registry.openStore('sqlite:nested/memory.db', {
      cwd: dir,
      repo: 'acme/other',
    })) as SqliteStore;
    expect(await other.state.get('k')).toBeUndefined();
    await other.close();
  });

  it('read-only: a missing file is NOT_FOUND and is not created; an existing one refuses writes', async () => {
    await expectRepomemError(
      () => registry.openStore('sqlite:missing.db', { cwd: dir, repo: 'acme/rocket', readOnly: true }),
      'NOT_FOUND',
      join(dir, 'missing.db'),
    );
    expect(existsSync(join(dir, 'missing.db'))).toBe(false);
    await (await registry.openStore('sqlite:present.db', { cwd: dir, repo: 'acme/rocket' })).close();
    const store = (await registry.openStore('sqlite:present.db', {
      cwd: dir,
      repo: 'acme/rocket',
      readOnly: true,
    })) as SqliteStore;
    expect(store.readOnly).toBe(true);
    await expectRepomemError(() => store.state.put('k', 1), 'READ_ONLY');
    await store.close();
  });
});
