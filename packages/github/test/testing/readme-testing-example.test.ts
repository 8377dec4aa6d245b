// Why: the README's loopback API example is what a user copies first, so it runs as written: the
// `ts` block of the testing section is executed, types stripped, by a separate Node process against
// the built package (imported by its name, `@repomem/github/testing`).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');

describe('README testing example', () => {
  it('runs unchanged: pages 250 issues in 3 requests and sees an edit made mid-run', async () => {
    const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Testing: a loopback GitHub API'));
    const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code).toBeDefined();
    const run = await promisify(execFile)(process.execPath, ['--input-type=module-typescript', '--eval', code ?? ''], {
      cwd: packageRoot,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toEqual(['250 3 3', 'edited']);
  });
});
