import { spawnSync } from 'node:child_process';
import { chmod, lstat, mkdir, readFile, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isRepomemError, type RepomemErrorCode } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DirectoryStore, openDirectoryStore } from '../src/index.js';
import { freshDirectory, listRaw, removeDirectory } from './support.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));

async function expectRepomemError(action: () => Promise<unknown>, code: RepomemErrorCode, message?: RegExp) {
  let caught: unknown;
  try {
    await action();
  } catch (error) {
    caught = error;
  }
  expect(isRepomemError(caught, code), `expected ${code}, got ${String(caught)}`).toBe(true);
  if (message) expect((caught as Error).message).toMatch(message);
}

let dir: string;
let outside: string;
let store: DirectoryStore;

beforeEach(async () => {
  dir = await freshDirectory();
  outside = await freshDirectory('repomem-outside-');
  store = await openDirectoryStore({ root: dir, lockTimeoutMs: 150, lockRetryMs: 10 });
});
afterEach(async () => {
  await store.close();
  await removeDirectory(dir);
  await removeDirectory(outside);
});

describe('openDirectoryStore', () => {
  it('refuses a missing root with NOT_FOUND naming the path, creating nothing', async () => {
    const missing = join(dir, 'nope', 'memory');
    await expectRepomemError(
      () => openDirectoryStore({ root: missing }),
      'NOT_FOUND',
      /does not exist: .*nope\/memory/,
    );
    await expect(stat(join(dir, 'nope'))).rejects.toThrow();
  });

  it('creates a missing root with create: true', async () => {
    const created = await openDirectoryStore({ root: join(dir, 'a', 'b'), create: true });
    expect((await stat(created.root)).isDirectory()).toBe(true);
    expect(await created.list()).toEqual([]);
  });

  it('refuses a root that is a file, or under a file, with NOT_A_DIRECTORY', async () => {
    const file = join(dir, 'MEMORY.md');
    await writeFile(file, 'x\n');
    for (const create of [false, true]) {
      await expectRepomemError(() => openDirectoryStore({ root: file, create }), 'NOT_A_DIRECTORY', /MEMORY\.md/);
      await expectRepomemError(
        () => openDirectoryStore({ root: join(file, 'sub'), create }),
        'NOT_A_DIRECTORY',
        /MEMORY\.md/,
      );
    }
    expect(await readFile(file, 'utf8')).toBe('x\n');
  });

  it('refuses invalid options with INVALID_ARGUMENT', async () => {
    await expectRepomemError(() => openDirectoryStore({ root: '' }), 'INVALID_ARGUMENT');
    await expectRepomemError(
      () => openDirectoryStore({ root: dir, lockTimeoutMs: 0 }),
      'INVALID_ARGUMENT',
      /lockTimeoutMs/,
    );
    await expectRepomemError(() => openDirectoryStore({ root: dir, maxDocumentBytes: -1 }), 'INVALID_ARGUMENT');
  });

  it('declares honest capabilities and resolves the real root path', async () => {
    const link = join(outside, 'link-to-root');
    await symlink(dir, link);
    const viaLink = await openDirectoryStore({ root: link });
    expect(viaLink.root).toBe(store.root);
    expect(store.capabilities).toEqual({
      binarySafe: true,
      atomicDocument: true,
      atomicBatch: false,
      readYourWrites: true,
      compareAndSwap: 'native',
      maxDocumentBytes: 16 * 1024 * 1024,
    });
  });
});

describe('walking the tree', () => {
  it('lists the Sepo layout and skips VCS, dependencies, locks, temp files, symlinks and unaddressable names', async () => {
    const files: Record<string, string> = {
      'MEMORY.md': '# Memory\n',
      'PROJECT.md': '',
      'README.md': 'layout\n',
      'daily/.gitkeep': '',
      'daily/2026-05-01.md': '# Daily log for 2026-05-01\n',
      'github/owner/repo/issue-1.json': '{}\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
      'sub/.git/config': '',
      'node_modules/x/index.js': '',
      '.hg/store': '',
      '.svn/entries': '',
      'MEMORY.md.lock': '123',
      'daily/.x.md.1.abc.repomem-tmp': 'half',
      'C:drive.md': 'unaddressable\n',
      'back\\slash.md': 'unaddressable\n',
    };
    for (const [path, content] of Object.entries(files)) {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), content);
    }
    await writeFile(join(outside, 'secret.md'), 'secret\n');
    await symlink(join(outside, 'secret.md'), join(dir, 'linked-file.md'));
    await symlink(outside, join(dir, 'linked-dir'));
    await symlink(join(dir, 'MEMORY.md'), join(dir, 'daily', 'inside-link.md'));
    expect((await store.list()).map((entry) => entry.path)).toEqual([
      'MEMORY.md',
      'PROJECT.md',
      'README.md',
      'daily/.gitkeep',
      'daily/2026-05-01.md',
      'github/owner/repo/issue-1.json',
    ]);
    expect((await store.list('linked-dir/')).length).toBe(0);
  });

  it('skips special files such as FIFOs', async () => {
    const made = spawnSync('mkfifo', [join(dir, 'pipe.md')]);
    if (made.status !== 0) return; // no mkfifo on this platform
    await writeFile(join(dir, 'MEMORY.md'), 'x\n');
    expect((await store.list()).map((entry) => entry.path)).toEqual(['MEMORY.md']);
    expect(await store.get('pipe.md')).toBeUndefined();
  });

  it('never reads through a symbolic link', async () => {
    await writeFile(join(outside, 'secret.md'), 'secret\n');
    await symlink(join(outside, 'secret.md'), join(dir, 'MEMORY.md'));
    await symlink(outside, join(dir, 'notes'));
    expect(await store.get('MEMORY.md')).toBeUndefined();
    expect(await store.get('notes/secret.md')).toBeUndefined();
  });

  it('never writes or deletes through a symbolic link, and leaves the target untouched', async () => {
    await writeFile(join(outside, 'secret.md'), 'secret\n');
    await symlink(join(outside, 'secret.md'), join(dir, 'MEMORY.md'));
    await symlink(outside, join(dir, 'notes'));
    await expectRepomemError(
      () => store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('pwned\n') }]),
      'INVALID_PATH',
      /MEMORY\.md: it is a symbolic link/,
    );
    await expectRepomemError(
      () => store.write([{ kind: 'put', path: 'notes/secret.md', content: utf8('pwned\n') }]),
      'INVALID_PATH',
      /symbolic link/,
    );
    await expectRepomemError(() => store.write([{ kind: 'delete', path: 'notes/secret.md' }]), 'INVALID_PATH');
    await expectRepomemError(() => store.write([{ kind: 'delete', path: 'MEMORY.md' }]), 'INVALID_PATH');
    expect(await readFile(join(outside, 'secret.md'), 'utf8')).toBe('secret\n');
    expect((await lstat(join(dir, 'MEMORY.md'))).isSymbolicLink()).toBe(true);
    expect(await listRaw(dir)).toEqual([]);
  });

  it('refuses lock and temp file names as documents', async () => {
    await expectRepomemError(() => store.get('MEMORY.md.lock'), 'INVALID_PATH', /reserved/);
    await expectRepomemError(
      () => store.write([{ kind: 'put', path: 'daily/x.repomem-tmp', content: utf8('x') }]),
      'INVALID_PATH',
    );
    expect(await listRaw(dir)).toEqual([]);
  });

  it('refuses to write over a directory or under a file', async () => {
    await mkdir(join(dir, 'daily'));
    await writeFile(join(dir, 'MEMORY.md'), 'keep\n');
    await expectRepomemError(
      () => store.write([{ kind: 'put', path: 'daily', content: utf8('x') }]),
      'INVALID_PATH',
      /is a directory/,
    );
    await expectRepomemError(
      () => store.write([{ kind: 'put', path: 'MEMORY.md/x.md', content: utf8('x') }]),
      'INVALID_PATH',
      /not a directory/,
    );
    expect(await store.get('daily')).toBeUndefined();
    expect(await listRaw(dir)).toEqual(['MEMORY.md']);
  });
});

describe('versions', () => {
  it('sees a same-size edit made by hand right after a listing', async () => {
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('- aaaa\n') }]);
    const before = await store.list();
    const revision = await store.revision();
    await writeFile(join(dir, 'MEMORY.md'), '- bbbb\n');
    const after = await store.list();
    expect(after[0]?.version).not.toBe(before[0]?.version);
    expect(after[0]?.version).toBe((await store.get('MEMORY.md'))?.version);
    expect(await store.revision()).not.toBe(revision);
  });

  it('sees an old file edited in place even when its mtime is restored (ctime is in the stamp)', async () => {
    const file = join(dir, 'MEMORY.md');
    await writeFile(file, '- aaaa\n');
    const old = new Date(Date.now() - 3_600_000);
    await utimes(file, old, old);
    const first = await store.list();
    expect(await store.list()).toEqual(first);
    await writeFile(file, '- bbbb\n');
    await utimes(file, old, old);
    const second = await store.list();
    expect(second[0]?.version).not.toBe(first[0]?.version);
    expect(second[0]?.version).toBe((await store.get('MEMORY.md'))?.version);
  });

  it('lists a file above maxDocumentBytes but refuses to read it', async () => {
    const small = await openDirectoryStore({ root: dir, maxDocumentBytes: 1024 });
    await writeFile(join(dir, 'big.md'), 'x'.repeat(2048));
    expect(await small.list()).toEqual([expect.objectContaining({ path: 'big.md', size: 2048 })]);
    await expectRepomemError(() => small.get('big.md'), 'FILE_TOO_LARGE', /big\.md is 2048 bytes/);
  });

  it('hashes a large sparse file on disk without reading it into one buffer', async () => {
    await writeFile(join(dir, 'sparse.bin'), '');
    await truncate(join(dir, 'sparse.bin'), 20 * 1024 * 1024);
    const [entry] = await store.list();
    expect(entry?.size).toBe(20 * 1024 * 1024);
    expect(entry?.version).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('writes', () => {
  it('keeps the permission bits of a rewritten file and hand-made CRLF bytes of others', async () => {
    await writeFile(join(dir, 'MEMORY.md'), 'a\n');
    await chmod(join(dir, 'MEMORY.md'), 0o640);
    await writeFile(join(dir, 'PROJECT.md'), '# Project\r\n- x\r\n');
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('b\n') }]);
    expect((await stat(join(dir, 'MEMORY.md'))).mode & 0o777).toBe(0o640);
    expect(await readFile(join(dir, 'PROJECT.md'), 'utf8')).toBe('# Project\r\n- x\r\n');
  });

  it('creates parent directories and deletes only the file', async () => {
    await store.write([{ kind: 'put', path: 'github/o/r/issue-1.json', content: utf8('{}\n') }]);
    await store.write([{ kind: 'delete', path: 'github/o/r/issue-1.json' }]);
    expect((await stat(join(dir, 'github/o/r'))).isDirectory()).toBe(true);
    expect(await listRaw(dir)).toEqual([]);
  });

  it('leaves no lock or temp file after commits, conflicts and refusals', async () => {
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('a\n') }]);
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('b\n'), expectedVersion: null }]);
    await symlink(outside, join(dir, 'linked'));
    await expectRepomemError(
      () =>
        store.write([
          { kind: 'put', path: 'a.md', content: utf8('a\n') },
          { kind: 'put', path: 'linked/x.md', content: utf8('x\n') },
        ]),
      'INVALID_PATH',
    );
    expect(await listRaw(dir)).toEqual(['MEMORY.md']);
    expect(decode((await store.get('MEMORY.md'))?.content)).toBe('a\n');
  });
});

describe('lock files (Sepo convention)', () => {
  it('waits for a fresh lock held by someone else, then fails with LOCK_TIMEOUT and touches nothing', async () => {
    await writeFile(join(dir, 'MEMORY.md'), 'original\n');
    await writeFile(join(dir, 'MEMORY.md.lock'), String(process.ppid));
    await expectRepomemError(
      () => store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('new\n') }]),
      'LOCK_TIMEOUT',
      /waiting for lock .*MEMORY\.md\.lock/,
    );
    expect(await readFile(join(dir, 'MEMORY.md'), 'utf8')).toBe('original\n');
    expect(await readFile(join(dir, 'MEMORY.md.lock'), 'utf8')).toBe(String(process.ppid));
  });

  it('respects a lock of a live process on this host', async () => {
    await writeFile(join(dir, 'MEMORY.md.lock'), JSON.stringify({ pid: process.ppid, host: hostname() }));
    await expectRepomemError(
      () => store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('new\n') }]),
      'LOCK_TIMEOUT',
    );
    expect(await store.get('MEMORY.md')).toBeUndefined();
  });

  it('breaks a lock older than the stale limit', async () => {
    const lock = join(dir, 'MEMORY.md.lock');
    await writeFile(lock, 'sepo');
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    const result = await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('new\n') }]);
    expect(result.status).toBe('committed');
    expect(await listRaw(dir)).toEqual(['MEMORY.md']);
  });

  it('breaks at once a lock whose owner process on this host is gone', async () => {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(child.stdout.toString());
    await writeFile(join(dir, 'MEMORY.md.lock'), JSON.stringify({ pid: deadPid, host: hostname() }));
    const patient = await openDirectoryStore({ root: dir, lockTimeoutMs: 60_000 });
    const result = await patient.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('new\n') }]);
    expect(result.status).toBe('committed');
    expect(await listRaw(dir)).toEqual(['MEMORY.md']);
  });

  it('removes the temp files a killed writer left for a document when it next writes it', async () => {
    await mkdir(join(dir, 'notes'), { recursive: true });
    await writeFile(join(dir, 'notes', '.a.md.4242.0123456789ab.repomem-tmp'), 'half a write');
    await writeFile(join(dir, 'notes', 'a.md.lock.ba9876543210.repomem-tmp'), '{}');
    await writeFile(join(dir, 'notes', '.b.md.4242.0123456789ab.repomem-tmp'), 'another document');
    const result = await store.write([{ kind: 'put', path: 'notes/a.md', content: utf8('- a\n') }]);
    expect(result.status).toBe('committed');
    expect((await listRaw(dir)).sort()).toEqual(['notes/.b.md.4242.0123456789ab.repomem-tmp', 'notes/a.md']);
  });

  it('holds its own lock while writing, so a second store in another timeline waits', async () => {
    // Both stores share the in-process queue; the lock file itself is checked by the multi-process test.
    const other = await openDirectoryStore({ root: dir });
    const results = await Promise.all(
      ['a\n', 'b\n'].map((value, index) =>
        (index === 0 ? store : other).write([
          { kind: 'put', path: 'MEMORY.md', content: utf8(value), expectedVersion: null },
        ]),
      ),
    );
    expect(results.map((result) => result.status).sort()).toEqual(['committed', 'conflict']);
  });
});
