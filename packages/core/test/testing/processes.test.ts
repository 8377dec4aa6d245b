// Why: runNodeWorkers is the scaffolding of every multi-process store test; it must report each
// worker's exit and output in worker order, pass node options before the script, report a failing
// worker instead of rejecting, and refuse a worker count that is not a positive integer.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRepomemError } from '../../src/index.js';
import { runNodeWorkers } from '../../src/testing/index.js';
import { freshDirectory, removeDirectory } from '../store/support.js';

let dir: string;
let script: string;

beforeAll(async () => {
  dir = await freshDirectory('repomem-workers-');
  script = join(dir, 'worker.mjs');
  await writeFile(
    script,
    [
      'const [worker, label] = process.argv.slice(2);',
      'process.stdout.write(["out", label, worker, process.execArgv.join(" ")].join(" ") + "\\n");',
      'process.stderr.write("err " + worker + "\\n");',
      'process.exitCode = Number(worker);',
    ].join('\n'),
  );
});
afterAll(async () => {
  await removeDirectory(dir);
});

describe('runNodeWorkers', () => {
  it('runs count workers at once and reports each exit and output in worker order', async () => {
    const results = await runNodeWorkers(script, (worker) => [String(worker), 'w'], {
      count: 3,
      nodeArgs: ['--no-warnings'],
    });
    expect(results.map(({ worker, code, signal }) => ({ worker, code, signal }))).toEqual([
      { worker: 0, code: 0, signal: null },
      { worker: 1, code: 1, signal: null },
      { worker: 2, code: 2, signal: null },
    ]);
    for (const result of results) {
      expect(result.stdout).toBe(`out w ${result.worker} --no-warnings\n`);
      expect(result.stderr).toBe(`err ${result.worker}\n`);
      expect(result.output).toContain(result.stdout);
      expect(result.output).toContain(result.stderr);
    }
  });

  it('gives every worker the same arguments when given a list', async () => {
    const results = await runNodeWorkers(script, ['0', 'same'], { count: 2 });
    expect(results.map((result) => [result.code, result.stdout])).toEqual([
      [0, 'out same 0 \n'],
      [0, 'out same 0 \n'],
    ]);
  });

  it('reports a worker that cannot load its script as a non-zero exit, not a rejection', async () => {
    const [result] = await runNodeWorkers(join(dir, 'missing.mjs'), [], { count: 1 });
    expect(result?.code).not.toBe(0);
    expect(result?.stderr).toContain('missing.mjs');
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses count %s with INVALID_ARGUMENT', (count) => {
    let caught: unknown;
    try {
      void runNodeWorkers(script, [], { count });
    } catch (error) {
      caught = error;
    }
    expect(isRepomemError(caught) && caught.code).toBe('INVALID_ARGUMENT');
    expect((caught as Error).message).toContain(`count must be a positive integer, got ${count}`);
  });
});
