// Why: the store and the verified-memory tables share one file, and a command that used both
// opened it twice. The registry's openStoreSet now opens one handle for the store, verified
// memories and task records; these count the process's open descriptors of the real file.
import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isRepomemError, StoreRegistry } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeScheme } from '../src/index.js';
import { freshDirectory, removeDirectory } from './support.js';

const REPO = 'acme/app';
let dir: string;
let registry: StoreRegistry;

beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-set-');
  registry = new StoreRegistry({ builtins: false });
  registry.registerStoreScheme(storeScheme);
});
afterEach(async () => {
  await removeDirectory(dir);
});

/** Descriptors of this process open on `file` itself (not its -wal and -shm companions). */
function handlesOn(file: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === file) count += 1;
    } catch {
      // closed between the listing and the read
    }
  }
  return count;
}

describe.skipIf(process.platform !== 'linux')('the sqlite: store set', () => {
  it('opens the file once for the store, verified memories and task records', async () => {
    const file = join(dir, 'repomem.db');
    const spec = `sqlite:${file}`;
    const apart = [
      await registry.openStore(spec, { cwd: dir, repo: REPO }),
      await registry.openVerifiedBackend(spec, { cwd: dir, repo: REPO }),
    ];
    expect(handlesOn(file)).toBe(2);
    for (const opened of apart) await opened.close();
    expect(handlesOn(file)).toBe(0);

    const set = await registry.openStoreSet(spec, { cwd: dir, repo: REPO });
    const verified = await set.verified();
    const tasks = await set.tasks();
    await set.store.write([{ kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('- use pnpm\n') }]);
    expect(await verified.recent({ repo: REPO })).toEqual([]);
    expect(await tasks.list({ repo: REPO, kind: 'episode' })).toEqual([]);
    expect(handlesOn(file)).toBe(1);
    await set.close();
    expect(handlesOn(file)).toBe(0);
  });

  it('closing the store alone leaves the backends working; closing the set closes them all, once', async () => {
    const set = await registry.openStoreSet(`sqlite:${join(dir, 'repomem.db')}`, { cwd: dir, repo: REPO });
    const verified = await set.verified();
    const tasks = await set.tasks();
    await set.store.close();
    expect(await verified.recent({ repo: REPO })).toEqual([]);
    await set.close();
    await set.close();
    const refused = await verified.recent({ repo: REPO }).catch((error: unknown) => error);
    expect(isRepomemError(refused, 'STORE_CLOSED')).toBe(true);
    const refusedTasks = await tasks.list({ repo: REPO, kind: 'episode' }).catch((error: unknown) => error);
    expect(isRepomemError(refusedTasks, 'STORE_CLOSED')).toBe(true);
  });
});
