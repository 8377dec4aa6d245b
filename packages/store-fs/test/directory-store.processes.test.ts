import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentVersion } from '@repomem/core';
import { runNodeWorkers } from '@repomem/core/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDirectoryStore } from '../src/index.js';
import { builtPackageUrl, freshDirectory, listRaw, removeDirectory } from './support.js';

const fixtures = join(import.meta.dirname, 'fixtures');
let packageUrl: string;
let dir: string;

beforeAll(() => {
  packageUrl = builtPackageUrl();
}, 120_000);
beforeEach(async () => {
  dir = await freshDirectory('repomem-processes-');
});
afterEach(async () => {
  await removeDirectory(dir);
});

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal }));
  });
}

describe('directory store across processes', () => {
  it('4 processes x 50 compare-and-swap appends to one file: all 200 lines land, once each', async () => {
    const workers = 4;
    const appends = 50;
    const results = await runNodeWorkers(
      join(fixtures, 'cas-appender.mjs'),
      (worker) => [packageUrl, dir, String(worker), String(appends)],
      { count: workers },
    );
    for (const result of results) expect(result, result.output).toMatchObject({ code: 0 });

    const lines = (await readFile(join(dir, 'MEMORY.md'), 'utf8')).split('\n').filter((line) => line.startsWith('- '));
    const expected = Array.from({ length: workers }, (_, worker) =>
      Array.from({ length: appends }, (_, index) => `- worker ${worker} line ${index}`),
    ).flat();
    expect(lines.length).toBe(workers * appends);
    expect([...lines].sort()).toEqual([...expected].sort());
    for (let worker = 0; worker < workers; worker += 1) {
      const own = lines.filter((line) => line.startsWith(`- worker ${worker} `));
      expect(own, 'each worker appends in its own order').toEqual(
        expected.filter((line) => line.startsWith(`- worker ${worker} `)),
      );
    }
    expect(await listRaw(dir)).toEqual(['MEMORY.md']);
  }, 60_000);

  it('a writer killed mid-write leaves the old or the new file, complete; leftovers are never listed', async () => {
    const size = 8 * 1024 * 1024;
    for (const killAfter of [0, 1, 2]) {
      const child = spawn(process.execPath, [join(fixtures, 'crash-writer.mjs'), packageUrl, dir, String(size)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const status = exited(child);
      let buffered = '';
      child.stdout?.on('data', (chunk) => {
        buffered += chunk;
        if (buffered.includes(`committed ${killAfter}\n`)) {
          child.kill('SIGKILL');
        }
      });
      expect((await status).signal).toBe('SIGKILL');

      const bytes = new Uint8Array(await readFile(join(dir, 'big.bin')));
      expect(bytes.byteLength).toBe(size);
      const fill = bytes[0];
      expect(fill === 0x61 || fill === 0x62).toBe(true);
      expect(
        bytes.every((byte) => byte === fill),
        'file is one complete version',
      ).toBe(true);

      const store = await openDirectoryStore({ root: dir });
      expect(await store.list()).toEqual([{ path: 'big.bin', version: contentVersion(bytes), size }]);
      // The killed writer's lock (if any) names a dead process, so the next writer goes ahead at once.
      const result = await store.write([{ kind: 'put', path: 'big.bin', content: new Uint8Array(size).fill(0x61) }]);
      expect(result.status).toBe('committed');
      // The killed writer's staged temp file and lock are cleaned by that next write.
      expect((await listRaw(dir)).filter((path) => path !== 'big.bin')).toEqual([]);
      expect((await store.list()).map((entry) => entry.path)).toEqual(['big.bin']);
      await store.close();
    }
  }, 60_000);
});
