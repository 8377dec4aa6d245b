// Why: a write must cost the same in a tree of 10 or 20,000 files, so it must not compute the
// whole-store revision (which lists the tree and reads every changed file). This is measured, not
// mocked: Linux counts the bytes and read calls of every process (/proc/self/io `rchar`,
// `syscr`), so a write in a tree of 2,000 files plus a 64 MiB file must read almost nothing,
// while revision(), computed when asked, reads them all and still changes with every write.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DirectoryStore, openDirectoryStore } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

const PROC_IO = '/proc/self/io';
const FILES = 2_000;
const BIG_BYTES = 64 * 1024 * 1024;

/** Bytes read and read calls of this process so far (the test runs in its own forked process). */
function readCounters(): { bytes: number; calls: number } {
  const text = readFileSync(PROC_IO, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(text)?.[1]);
  return { bytes: field('rchar'), calls: field('syscr') };
}

async function measure<T>(work: () => Promise<T>): Promise<{ result: T; bytes: number; calls: number }> {
  const before = readCounters();
  const result = await work();
  const after = readCounters();
  return { result, bytes: after.bytes - before.bytes, calls: after.calls - before.calls };
}

let root: string;
let store: DirectoryStore;

beforeEach(async () => {
  root = await freshDirectory('repomem-lazy-revision-');
  for (let bucket = 0; bucket < 20; bucket += 1) {
    await mkdir(join(root, 'github', `b${bucket}`), { recursive: true });
    await Promise.all(
      Array.from({ length: FILES / 20 }, (_, index) =>
        writeFile(join(root, 'github', `b${bucket}`, `issue-${index}.json`), `{"title":"issue ${bucket}/${index}"}\n`),
      ),
    );
  }
  await writeFile(join(root, 'big.bin'), '');
  await truncate(join(root, 'big.bin'), BIG_BYTES);
  store = await openDirectoryStore({ root });
});
afterEach(async () => {
  await store.close();
  await removeDirectory(root);
});

describe.skipIf(!existsSync(PROC_IO))('a write does not compute the revision', () => {
  it('reads almost nothing in a big tree, while revision() reads it all and follows every write', async () => {
    const content = new TextEncoder().encode('# Memory\n- one\n');
    const write = await measure(() => store.write([{ kind: 'put', path: 'MEMORY.md', content }]));
    expect(write.result).toEqual({ status: 'committed', versions: { 'MEMORY.md': expect.any(String) } });
    expect(write.bytes, 'bytes read by the write').toBeLessThan(1024 * 1024);
    expect(write.calls, 'read calls made by the write').toBeLessThan(200);

    const first = await measure(() => store.revision());
    expect(first.bytes, 'revision() hashes the tree').toBeGreaterThan(BIG_BYTES);
    expect(first.calls).toBeGreaterThan(FILES);

    const update = await measure(() =>
      store.write([
        { kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('# Memory\n- two\n') },
        { kind: 'delete', path: 'github/b3/issue-7.json' },
      ]),
    );
    expect(update.result.status).toBe('committed');
    expect(update.bytes).toBeLessThan(1024 * 1024);
    expect(update.calls).toBeLessThan(200);
    const second = await store.revision();
    expect(second).not.toBe(first.result);
    expect(await store.revision(), 'stable while nothing changes').toBe(second);
  }, 60_000);
});
