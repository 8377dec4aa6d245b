// Why: several agents update the same MEMORY.md at once; 4 processes each add 50 distinct
// bullets through `runCli` (in-process, 200 invocations without 200 process spawns) and every
// bullet must be present afterwards, under a single section header.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { assertBuilt, LIBRARY, makeTempDir, runNode } from './support.js';

const temp = makeTempDir('repomem-cli-concurrency-');
beforeAll(() => assertBuilt());
afterAll(() => temp.remove());

const PROCESSES = 4;
const BULLETS_PER_PROCESS = 50;

const worker = `
const { runCli } = await import(${JSON.stringify(pathToFileURL(LIBRARY).href)});
const [dir, id, count] = process.argv.slice(1);
const sink = { write() {} };
let failures = 0;
for (let i = 0; i < Number(count); i += 1) {
  const args = ['update', 'add', '--dir', dir, '--file', 'MEMORY.md', '--section', 'Durable', 'bullet', 'p' + id, 'n' + i];
  const err = [];
  const code = await runCli(args, { stdout: sink, stderr: { write: (s) => err.push(s) }, env: {}, cwd: dir });
  if (code !== 0) { failures += 1; process.stderr.write('exit ' + code + ': ' + err.join('')); }
}
process.exitCode = failures === 0 ? 0 : 1;
`;

it(`${PROCESSES} processes x ${BULLETS_PER_PROCESS} adds to one MEMORY.md lose nothing`, async () => {
  const results = await Promise.all(
    Array.from({ length: PROCESSES }, (_, id) =>
      runNode(['--input-type=module', '-e', worker, temp.path, String(id), String(BULLETS_PER_PROCESS)], {
        cwd: temp.path,
      }),
    ),
  );
  for (const result of results) expect(result).toMatchObject({ code: 0, stderr: '' });

  const lines = readFileSync(join(temp.path, 'MEMORY.md'), 'utf8').split('\n');
  const bullets = lines.filter((line) => line.startsWith('- bullet '));
  expect(new Set(bullets).size).toBe(PROCESSES * BULLETS_PER_PROCESS);
  expect(bullets).toHaveLength(PROCESSES * BULLETS_PER_PROCESS);
  for (let id = 0; id < PROCESSES; id += 1) {
    for (let n = 0; n < BULLETS_PER_PROCESS; n += 1) expect(bullets).toContain(`- bullet p${id} n${n}`);
  }
  expect(lines.filter((line) => line.startsWith('## '))).toEqual(['## Durable']);
  expect(lines[0]).toBe('# Memory');
});
