// Why: `repomem doctor` is what a user runs when a store does not work; it must report each
// check of the chosen store and a fix for what failed, with exit 2, on real stores.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, jsonOf } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-doctor-');
afterAll(() => temp.remove());

describe('repomem doctor', () => {
  it('passes on a SQLite store that exists', async () => {
    const db = join(temp.path, 'ok.db');
    const added = await cli(
      ['update', 'add', '--store', `sqlite:${db}`, '--file', 'MEMORY.md', '--section', 'Notes', 'hello'],
      {
        cwd: temp.path,
      },
    );
    expect(added.code).toBe(0);
    const result = await cli(['doctor', '--store', `sqlite:${db}`], { cwd: temp.path });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('ok    opens:');
    expect(result.stdout).toContain('All checks passed.');
  });

  it('fails with a fix when the store cannot be opened, as text and as JSON', async () => {
    const missing = join(temp.path, 'missing.db');
    const text = await cli(['doctor', '--store', `sqlite:${missing}`], { cwd: temp.path });
    expect(text.code).toBe(2);
    expect(text.stdout).toContain('FAIL  opens:');
    expect(text.stdout).toContain('fix:');
    const json = await cli(['doctor', '--store', `sqlite:${missing}`, '--json'], { cwd: temp.path });
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, checks: [{ check: 'opens', status: 'failed' }] });
  });

  it('checks a memory directory chosen with --dir', async () => {
    const result = await cli(['doctor', '--dir', temp.path, '--json'], { cwd: temp.path });
    expect(jsonOf(result)).toMatchObject({ ok: true });
  });
});
