// Why: one damaged task record (a truncated episode file, another repository's record copied
// into this one's folder) must never hide the others: on a memory directory, `episode list` and
// `context` serve the good records and warn once about each bad one, and writing the task id
// again replaces the bad record.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, cli, jsonOf } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-damage-');
afterAll(() => temp.remove());

let work: string;
let counter = 0;
beforeEach(() => {
  counter += 1;
  work = join(temp.path, `case-${counter}`);
  mkdirSync(work, { recursive: true });
});

const inDir = (repo: string, ...args: string[]): Promise<CliResult> =>
  cli([...args, '--repo', repo, '--dir', join(work, 'mem')], { cwd: work });

const episodes = (repo: string) => join(work, 'mem', '.repomem', 'tasks', 'episode', ...repo.split('/'));

describe('a damaged task record on a memory directory', () => {
  it('is reported once and skipped; the others are served; writing the id again replaces it', async () => {
    expect((await cli(['init', '--dir', join(work, 'mem')], { cwd: work })).code).toBe(0);
    for (const id of ['t-1', 't-2', 't-3']) {
      const written = await inDir(
        'acme/app',
        ...['episode', 'write', '--task-id', id, '--status', 'completed', '--description', `Billing webhook ${id}`],
      );
      expect(written.code).toBe(0);
    }
    expect((await inDir('acme/other', 'episode', 'write', '--task-id', 'o-1', '--status', 'failed')).code).toBe(0);
    const truncated = join(episodes('acme/app'), 't-2.json');
    writeFileSync(truncated, readFileSync(truncated, 'utf8').slice(0, 40));
    copyFileSync(join(episodes('acme/other'), 'o-1.json'), join(episodes('acme/app'), 'o-1.json'));

    const listed = await inDir('acme/app', 'episode', 'list', '--json');
    expect(listed.code).toBe(0);
    expect((jsonOf(listed) as { episodes: { id: string }[] }).episodes.map((e) => e.id).sort()).toEqual(['t-1', 't-3']);
    expect(listed.stderr.match(/t-2\.json/g)).toHaveLength(1);
    expect(listed.stderr.match(/o-1\.json/g)).toHaveLength(1);
    expect(listed.stderr).toContain('acme/other');

    const context = await inDir('acme/app', 'context', '--task', 'billing webhook', '--json');
    expect(context.code).toBe(0);
    const served = (jsonOf(context) as { context: { episodes: { id: string }[] } }).context.episodes;
    expect(served.map((e) => e.id).sort()).toEqual(['t-1', 't-3']);
    expect(context.stderr.match(/t-2\.json/g)).toHaveLength(1);

    const rewritten = await inDir('acme/app', 'episode', 'write', '--task-id', 't-2', '--status', 'completed');
    expect(rewritten.code).toBe(0);
    expect((await inDir('acme/app', 'episode', 'get', '--task-id', 't-2')).code).toBe(0);
    const after = await inDir('acme/app', 'episode', 'list', '--json');
    expect((jsonOf(after) as { episodes: { id: string }[] }).episodes.map((e) => e.id).sort()).toEqual([
      't-1',
      't-2',
      't-3',
    ]);
    expect(after.stderr).not.toContain('t-2.json');
  });
});
