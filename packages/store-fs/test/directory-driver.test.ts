// Why: what the driver suite cannot see about the directory driver: data written by the release
// before the store kit reads identically (same files, versions, revision and state), a file too
// large to read can still be replaced or deleted, a write's check answered from an earlier read
// never hides an edit made by hand, namespaces land where the README says, and an empty twin
// directory is still refused.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDirectoryDriver, type DirectoryStore, openDirectoryStore } from '../src/index.js';
import { expectRepomemError, freshDirectory, listRaw, removeDirectory } from './support.js';

const utf8 = (text: string) => new TextEncoder().encode(text);
const BASELINE = '/work/baseline/packages/store-fs/dist/index.js';

let workspace: string;
let root: string;

beforeEach(async () => {
  workspace = await freshDirectory('repomem-driver-');
  root = join(workspace, 'memory');
});
afterEach(async () => {
  await removeDirectory(workspace);
});

describe.skipIf(!existsSync(BASELINE))('data written by the release before the store kit', () => {
  it('opens and reads identically: documents, versions, revision and state values', async () => {
    const before = (await import(pathToFileURL(BASELINE).href)) as {
      openDirectoryStore: (options: { root: string; create?: boolean }) => Promise<DirectoryStore>;
    };
    const old = await before.openDirectoryStore({ root, create: true });
    await old.write([
      { kind: 'put', path: 'MEMORY.md', content: utf8('# Memory\n\n## Durable\n- one\n') },
      { kind: 'put', path: 'daily/2026-05-01.md', content: utf8('- a day\n') },
      { kind: 'put', path: 'bin/blob.bin', content: Uint8Array.from([0, 255, 1, 254]) },
      { kind: 'put', path: '.repomem/verified/x.json', content: utf8('{"id":"x"}\n') },
    ]);
    for (const key of ['sync/acme/app', 'a', 'a/deep', 'a.json/x']) await old.state.put(key, { key });
    const listed = await old.list();
    const revision = await old.revision();
    const state = await old.state.list();
    await old.close();

    const store = await openDirectoryStore({ root });
    expect(await store.list()).toEqual(listed);
    expect(await store.revision()).toBe(revision);
    expect(await store.state.list()).toEqual(state);
    expect((await store.get('bin/blob.bin'))?.content).toEqual(Uint8Array.from([0, 255, 1, 254]));
    const memory = listed.find((entry) => entry.path === 'MEMORY.md');
    const replaced = await store.write([
      { kind: 'put', path: 'MEMORY.md', content: utf8('- two\n'), expectedVersion: memory?.version ?? null },
    ]);
    expect(replaced.status).toBe('committed');
    const cursor = state.find((entry) => entry.key === 'sync/acme/app');
    expect((await store.state.put('sync/acme/app', { moved: true }, cursor?.version ?? null)).status).toBe('committed');
    await store.close();
  });
});

describe('the committed tree written by the release before the store kit', () => {
  it('lists the same documents, versions, revision and state values', async () => {
    const fixture = JSON.parse(await readFile(join(import.meta.dirname, 'fixtures', 'pre-kit-store.json'), 'utf8'));
    for (const [path, base64] of Object.entries(fixture.files as Record<string, string>)) {
      await mkdir(dirname(join(workspace, path)), { recursive: true });
      await writeFile(join(workspace, path), Buffer.from(base64, 'base64'));
    }
    const expected = fixture.expected;
    const store = await openDirectoryStore({ root });
    expect(await store.list()).toEqual(expected.list);
    expect(await store.revision()).toBe(expected.revision);
    expect(await store.state.list()).toEqual(expected.state);
    expect(new TextDecoder().decode((await store.get('notes/Café.md'))?.content)).toBe('- café\n');
    await store.close();
  });
});

describe('the directory driver', () => {
  let store: DirectoryStore;
  beforeEach(async () => {
    store = await openDirectoryStore({ root, create: true, maxDocumentBytes: 1024 });
  });
  afterEach(async () => {
    await store.close();
  });

  it('replaces and deletes a file too large to read, which get() refuses', async () => {
    await writeFile(join(root, 'big.md'), 'x'.repeat(4096));
    await writeFile(join(root, 'huge.md'), 'y'.repeat(4096));
    await expectRepomemError(() => store.get('big.md'), 'FILE_TOO_LARGE');
    expect((await store.write([{ kind: 'put', path: 'big.md', content: utf8('small\n') }])).status).toBe('committed');
    expect((await store.write([{ kind: 'delete', path: 'huge.md' }])).status).toBe('committed');
    expect(await listRaw(root)).toEqual(['big.md']);
    expect(await readFile(join(root, 'big.md'), 'utf8')).toBe('small\n');
  });

  it('never lets a write checked against an earlier read hide an edit made by hand', async () => {
    await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('- a\n') }]);
    const read = await store.get('MEMORY.md');
    await writeFile(join(root, 'MEMORY.md'), '- by hand\n');
    const result = await store.write([
      { kind: 'put', path: 'MEMORY.md', content: utf8('- a\n- b\n'), expectedVersion: read?.version ?? null },
    ]);
    expect(result.status).toBe('conflict');
    expect(await readFile(join(root, 'MEMORY.md'), 'utf8')).toBe('- by hand\n');
  });

  it('refuses a twin of an empty directory, naming it as a directory', async () => {
    await mkdir(join(root, 'Notes'));
    await expectRepomemError(
      () => store.write([{ kind: 'put', path: 'notes/a.md', content: utf8('x') }]),
      'INVALID_PATH',
      /"Notes\/"/,
    );
    expect(await listRaw(root)).toEqual([]);
  });
});

describe('namespaces on disk', () => {
  it('keeps documents in the memory tree, state in the state directory, others in .kit-<name>/', async () => {
    const driver = await createDirectoryDriver({ root, create: true });
    const put = (namespace: string, key: string) => ({ namespace, key, value: utf8(key), version: 'v' });
    await driver.write([put('documents', 'a.md'), put('state', 'sync/a'), put('cache', 'x')]);
    expect(await listRaw(root)).toEqual(['a.md']);
    expect(await listRaw(driver.stateDir)).toEqual(['.kit-cache/x.json', 'sync/a.json']);
    expect((await driver.scan('state', { prefix: '' })).map((entry) => entry.key)).toEqual(['sync/a']);
    await expectRepomemError(() => driver.read('Not Valid', ['x']), 'INVALID_ARGUMENT', /namespace/);
    await driver.close();
  });
});
