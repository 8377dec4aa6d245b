// Why: a shared memory is written by many machines at once. Real node processes race on one
// document (8 x 50 compare-and-swap bullet adds through core's registry: all 400 lines present,
// once each, in each writer's order) and on verified memories (4 x 100 creations plus a shared
// counter bumped with compare-and-swap: none lost), also racing to create the schema.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCrossProcessCompareAndSwap, runNodeWorkers } from '@repomem/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPostgresRecordBackend } from '../src/index.js';
import { freshDatabase, freshSchema, noServer, server, skipReason, superuserFields } from './support.js';

const coreUrl = pathToFileURL(
  join(dirname(createRequire(import.meta.url).resolve('@repomem/core/package.json')), 'dist', 'index.js'),
).href;

function spec(database: string, schema: string): string {
  if (server === undefined) throw new Error(skipReason);
  return `postgres://${server.user}:${encodeURIComponent(server.password)}@${server.host}:${server.port}/${database}?schema=${schema}`;
}

describe.skipIf(noServer)(`postgres store across processes${skipReason === '' ? '' : ` — ${skipReason}`}`, () => {
  let database = '';
  beforeAll(async () => {
    database = await freshDatabase('processes');
  });

  it('8 processes x 50 compare-and-swap bullet adds to one document of a new schema: all 400 land, once each', async () => {
    const report = await runCrossProcessCompareAndSwap({
      spec: spec(database, freshSchema()),
      repo: 'acme/rocket',
      workers: 8,
      operations: 50,
    });
    for (const worker of report.failedWorkers) expect(worker, worker.output).toMatchObject({ code: 0 });
    expect(report.missing).toEqual([]);
    expect(report.duplicated).toEqual([]);
    expect(report.reordered).toEqual([]);
    expect(report.found).toHaveLength(400);
  }, 120_000);

  it('4 processes x 100 verified-memory writes and a shared compare-and-swap counter: none lost', async () => {
    const schema = freshSchema();
    const results = await runNodeWorkers(
      new URL('./fixtures/memory-writer.mjs', import.meta.url).pathname,
      (worker) => [coreUrl, spec(database, schema), String(worker), '100'],
      { count: 4, nodeArgs: ['--no-warnings'] },
    );
    for (const result of results) expect(result, result.output).toMatchObject({ code: 0 });
    const backend = await openPostgresRecordBackend({ ...superuserFields(database), schema });
    try {
      const all = await backend.recent({ repo: 'acme/rocket' });
      expect(all).toHaveLength(401);
      const counter = await backend.get('acme/rocket', '00000000-0000-4000-8000-000000000000');
      expect(counter?.verification_count).toBe(400);
      expect(counter?.revision).toBe(400);
    } finally {
      await backend.close();
    }
  }, 120_000);
});
