// Why: the README's example is the first code a user copies, so it is run as written: the first
// `ts` block is executed by a separate Node process against the built package (imported by its
// name, and loaded by name again by core's registry for the `dir:` spec).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtPackageUrl, packageRoot } from './support.js';

beforeAll(() => {
  builtPackageUrl();
}, 120_000);

describe('README example', () => {
  it('runs unchanged and prints what its comments say', async () => {
    const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
    const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(code).toBeDefined();
    // Every type in the example is inferred, so it is valid JavaScript as written.
    const run = await promisify(execFile)(process.execPath, ['--input-type=module', '--eval', code ?? ''], {
      cwd: packageRoot,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(run.stderr).toBe('');
    const printed = [...(code ?? '').matchAll(/console\.log\(.*\); \/\/ (.*)$/gm)].map((match) => match[1]);
    expect(run.stdout.trim().split('\n')).toEqual(printed);
  });
});
