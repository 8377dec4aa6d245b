import { join } from 'node:path';
import { runNodeWorkers } from '@repomem/core/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteRecordBackend } from '../src/index.js';
import { builtPackageUrl, freshDirectory, removeDirectory } from './support.js';

const fixtures = join(import.meta.dirname, 'fixtures');
let packageUrl: string;
let dir: string;

beforeAll(() => {
  packageUrl = builtPackageUrl();
}, 120_000);
beforeEach(async () => {
  dir = await freshDirectory('repomem-sqlite-record-processes-');
});
afterEach(async () => {
  await removeDirectory(dir);
});

describe('sqlite record backend across processes', () => {
  it('2 processes x 50 creates into one new file at once: all 100 records land, each with its created event', async () => {
    const workers = 2;
    const creates = 50;
    // The file does not exist yet: both processes race to create and migrate it too.
    const file = join(dir, 'shared', 'memory.db');
    const results = await runNodeWorkers(
      join(fixtures, 'record-creator.mjs'),
      (worker) => [packageUrl, file, String(worker), String(creates)],
      { count: workers, nodeArgs: ['--no-warnings'] },
    );
    for (const result of results) expect(result, result.output).toMatchObject({ code: 0 });

    const backend = openSqliteRecordBackend({ path: file });
    const records = await backend.recent({ repo: 'acme/rocket' });
    expect(records).toHaveLength(workers * creates);
    const events = await backend.events({ repo: 'acme/rocket' });
    expect(events).toHaveLength(workers * creates);
    expect(events.every((event) => event.type === 'created')).toBe(true);
    expect(new Set(events.map((event) => event.memory_id))).toEqual(new Set(records.map((record) => record.id)));
    for (let worker = 0; worker < workers; worker += 1) {
      const own = await backend.byPath({ repo: 'acme/rocket', path: `src/worker-${worker}.ts` });
      expect(own).toHaveLength(creates);
      const found = await backend.search({ repo: 'acme/rocket', text: `worker ${worker} memory ${creates - 1}` });
      expect(found.map((record) => record.subject)).toContain(`Worker ${worker} memory ${creates - 1}`);
    }
    expect((await backend.stats({ repo: 'acme/rocket' })).events.created).toBe(workers * creates);
    await backend.close();
  }, 60_000);
});
