// Why: what the directory store adds to the state contract beyond the conformance groups: where
// the files live (never in the memory tree), how keys map to files, that state never reaches
// listing or search, that a damaged file is reported rather than taken for an absent value, and
// that state writes take the same lock files as documents.
import { mkdir, readFile, realpath, stat, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { searchStore } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DirectoryStore, openDirectoryStore, STATE_DIRECTORY_NAME } from '../src/index.js';
import { expectRepomemError, freshDirectory, listRaw, removeDirectory } from './support.js';

let workspace: string;
let root: string;
let store: DirectoryStore;

beforeEach(async () => {
  workspace = await freshDirectory('repomem-state-');
  root = join(workspace, 'memory');
  store = await openDirectoryStore({ root, create: true, lockTimeoutMs: 150, lockRetryMs: 10 });
});
afterEach(async () => {
  await store.close();
  await removeDirectory(workspace);
});

describe('where state lives', () => {
  it('defaults to <parent>/.repomem-state/<name of root>, created on the first write only', async () => {
    expect(store.stateDir).toBe(join(dirname(store.root), STATE_DIRECTORY_NAME, basename(store.root)));
    expect(await store.state.get('sync/acme/app')).toBeUndefined();
    expect(await store.state.list()).toEqual([]);
    await expect(stat(store.stateDir)).rejects.toMatchObject({ code: 'ENOENT' });

    await store.state.put('sync/acme/app', { cursor: 'c1' });
    expect(JSON.parse(await readFile(join(store.stateDir, 'sync/acme/app.json'), 'utf8'))).toEqual({ cursor: 'c1' });
    expect(await listRaw(store.stateDir)).toEqual(['sync/acme/app.json']);
    expect(await listRaw(root), 'nothing in the memory directory').toEqual([]);
  });

  it('honours stateDir', async () => {
    const elsewhere = join(workspace, 'elsewhere');
    const custom = await openDirectoryStore({ root, stateDir: elsewhere });
    expect(custom.stateDir).toBe(join(await realpath(workspace), 'elsewhere'));
    await custom.state.put('k', 1);
    expect(await listRaw(elsewhere)).toEqual(['k.json']);
    expect(await store.state.get('k'), 'another state directory is another namespace').toBeUndefined();
    await custom.close();
  });

  it('refuses a stateDir inside the memory directory, equal to it, or containing it', async () => {
    for (const stateDir of [join(root, '.state'), join(root, 'daily', 'x'), root, workspace, '/']) {
      await expectRepomemError(() => openDirectoryStore({ root, stateDir }), 'INVALID_ARGUMENT', /overlaps the memory/);
    }
    await expectRepomemError(() => openDirectoryStore({ root, stateDir: '' }), 'INVALID_ARGUMENT', /stateDir/);
  });

  it('refuses a stateDir that reaches into the memory directory through a symbolic link', async () => {
    await mkdir(join(root, 'inside'));
    await symlink(join(root, 'inside'), join(workspace, 'link'));
    await expectRepomemError(
      () => openDirectoryStore({ root, stateDir: join(workspace, 'link', 'state') }),
      'INVALID_ARGUMENT',
      /overlaps/,
    );
  });

  it('refuses a stateDir that is a file with NOT_A_DIRECTORY', async () => {
    await writeFile(join(workspace, 'file'), 'x');
    await expectRepomemError(() => openDirectoryStore({ root, stateDir: join(workspace, 'file') }), 'NOT_A_DIRECTORY');
  });

  it('needs a stateDir outside the memory directory when it is the filesystem root', async () => {
    await expectRepomemError(() => openDirectoryStore({ root: '/' }), 'INVALID_ARGUMENT', /pass stateDir/);
    // On a POSIX system every directory is inside `/`, so no stateDir can be outside it.
    await expectRepomemError(
      () => openDirectoryStore({ root: '/', stateDir: join(workspace, 'state') }),
      'INVALID_ARGUMENT',
      /overlaps/,
    );
  });
});

describe('state values as files', () => {
  it('keeps nested keys and a key that is the directory of another apart', async () => {
    const keys = ['a', 'a/deep', 'a.json/x', 'a.json', 'thread/o%2Fr--issue--1', 'sync/user@host'];
    for (const [index, key] of keys.entries())
      expect((await store.state.put(key, index, null)).status, key).toBe('committed');
    for (const [index, key] of keys.entries()) expect((await store.state.get(key))?.value, key).toBe(index);
    expect((await store.state.list()).map((entry) => entry.key)).toEqual([...keys].sort());
    expect(await listRaw(store.stateDir)).toEqual(
      [
        'a.json',
        'a/deep.json',
        'a.json~/x.json',
        'a.json.json',
        'sync/user@host.json',
        'thread/o%2Fr--issue--1.json',
      ].sort(),
    );
  });

  it('versions are the SHA-256 of the file, so an edit by hand is seen and compare-and-swap catches it', async () => {
    const created = await store.state.put('cursor', { at: 1 }, null);
    await writeFile(join(store.stateDir, 'cursor.json'), '{ "at": 2 }\n');
    const read = await store.state.get('cursor');
    expect(read?.value).toEqual({ at: 2 });
    expect(read?.version).not.toBe(created.status === 'committed' ? created.version : undefined);
    const stale = await store.state.put('cursor', { at: 3 }, created.status === 'committed' ? created.version : null);
    expect(stale).toEqual({ status: 'conflict', expected: expect.any(String), actual: read?.version });
  });

  it('ignores files no key maps to, and lock and temp files', async () => {
    await store.state.put('sync/a', 1);
    await writeFile(join(store.stateDir, 'notes.txt'), 'x');
    await writeFile(join(store.stateDir, 'with space.json'), '1');
    await writeFile(join(store.stateDir, '.hidden.json'), '1');
    await writeFile(join(store.stateDir, 'sync', 'a.json.lock'), String(process.pid));
    await writeFile(join(store.stateDir, 'sync', '.a.json.1.ab.repomem-tmp'), '{');
    await mkdir(join(store.stateDir, 'odd.json'));
    await writeFile(join(store.stateDir, 'odd.json', 'x.json'), '1'); // unescaped: not the store's name for any key
    expect(await store.state.list()).toEqual([{ key: 'sync/a', value: 1, version: expect.any(String) }]);
  });

  it('never shows state in list(), readAll(), revision() or search', async () => {
    await store.write([
      { kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('# Memory\n- cursor notes\n') },
    ]);
    const revision = await store.revision();
    await store.state.put('sync/cursor', { cursor: 'cursor notes zebra' });
    expect((await store.list()).map((entry) => entry.path)).toEqual(['MEMORY.md']);
    expect((await store.readAll()).map((document) => document.path)).toEqual(['MEMORY.md']);
    expect(await store.revision()).toBe(revision);
    expect((await searchStore(store, 'zebra')).results).toEqual([]);
    expect((await searchStore(store, 'cursor')).results.map((hit) => hit.path)).toEqual(['MEMORY.md']);
  });
});

describe('damaged state files', () => {
  it('reads a file that is not JSON as INVALID_DOCUMENT naming the key, and a blind put repairs it', async () => {
    await store.state.put('sync/acme/app', { cursor: 'x' });
    const file = join(store.stateDir, 'sync/acme/app.json');
    await writeFile(file, '{"cursor": "x"');
    await expectRepomemError(() => store.state.get('sync/acme/app'), 'INVALID_DOCUMENT', /sync\/acme\/app/);
    await expectRepomemError(() => store.state.list(), 'INVALID_DOCUMENT', /sync\/acme\/app/);
    expect((await store.state.put('sync/acme/app', { cursor: 'y' }, null)).status, 'it is not absent').toBe('conflict');
    expect((await store.state.put('sync/acme/app', { cursor: 'y' })).status).toBe('committed');
    expect((await store.state.get('sync/acme/app'))?.value).toEqual({ cursor: 'y' });
  });

  it('reports invalid UTF-8, a directory and an oversized file as INVALID_DOCUMENT; a blind delete removes a bad file', async () => {
    await mkdir(store.stateDir, { recursive: true });
    await writeFile(join(store.stateDir, 'latin1.json'), new Uint8Array([0x22, 0xe9, 0x22]));
    await mkdir(join(store.stateDir, 'dir.json'));
    await writeFile(join(store.stateDir, 'huge.json'), `"${'x'.repeat(2 * 1024 * 1024)}"`);
    await expectRepomemError(() => store.state.get('latin1'), 'INVALID_DOCUMENT', /UTF-8/);
    await expectRepomemError(() => store.state.get('dir'), 'INVALID_DOCUMENT', /directory/);
    await expectRepomemError(() => store.state.get('huge'), 'INVALID_DOCUMENT', /larger than/);
    expect(await store.state.delete('latin1')).toEqual({ status: 'committed', version: null });
    expect(await store.state.get('latin1')).toBeUndefined();
  });

  it('never reads or writes through a symbolic link in the state directory', async () => {
    const outside = await freshDirectory('repomem-state-outside-');
    try {
      await writeFile(join(outside, 'secret.json'), '"secret"');
      await mkdir(store.stateDir, { recursive: true });
      await symlink(join(outside, 'secret.json'), join(store.stateDir, 'linked.json'));
      await symlink(outside, join(store.stateDir, 'dir'));
      await expectRepomemError(() => store.state.get('linked'), 'INVALID_DOCUMENT', /symbolic link/);
      await expectRepomemError(() => store.state.get('dir/secret'), 'INVALID_DOCUMENT', /symbolic link/);
      await expectRepomemError(() => store.state.put('dir/secret', 'pwned'), 'INVALID_PATH', /symbolic link/);
      expect(await readFile(join(outside, 'secret.json'), 'utf8')).toBe('"secret"');
    } finally {
      await removeDirectory(outside);
    }
  });
});

describe('state locks', () => {
  it('waits for the <file>.lock of a live writer, then fails with LOCK_TIMEOUT and changes nothing', async () => {
    await store.state.put('k', 'before');
    await writeFile(join(store.stateDir, 'k.json.lock'), JSON.stringify({ pid: process.ppid, host: hostname() }));
    await expectRepomemError(() => store.state.put('k', 'after'), 'LOCK_TIMEOUT', /k\.json\.lock/);
    await expectRepomemError(() => store.state.delete('k'), 'LOCK_TIMEOUT');
    expect((await store.state.get('k'))?.value).toBe('before');
  });

  it('leaves no lock or temp file behind', async () => {
    await store.state.put('sync/a', 1);
    await store.state.put('sync/a', 2);
    await store.state.put('sync/a', 3, 'stale');
    await store.state.delete('sync/b');
    expect(await listRaw(store.stateDir)).toEqual(['sync/a.json']);
  });

  it('rejects every state call after close() with STORE_CLOSED', async () => {
    const other = await openDirectoryStore({ root });
    await other.close();
    await expectRepomemError(() => other.state.get('k'), 'STORE_CLOSED');
    await expectRepomemError(() => other.state.put('k', 1), 'STORE_CLOSED');
    await expectRepomemError(() => other.state.delete('k'), 'STORE_CLOSED');
    await expectRepomemError(() => other.state.list(), 'STORE_CLOSED');
  });
});
