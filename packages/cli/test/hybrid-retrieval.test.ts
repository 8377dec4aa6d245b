// Why: with an embedder configured, `repomem search` fuses lexical and semantic rankings and
// `repomem context` scores memories by meaning too, with the real local model (loaded beside the
// built binary, as an installed CLI does); without one both stay lexical and load no model.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, jsonOf } from './in-process.js';
import { assertBuilt, cleanEnv, makeTempDir, repomem } from './support.js';

assertBuilt();
const temp = makeTempDir('repomem-cli-hybrid-');
afterAll(() => temp.remove());

describe('hybrid retrieval in the CLI', () => {
  it('search and context use the embedder when one is configured', async () => {
    const db = `sqlite:${join(temp.path, 'memory.db')}`;
    const add = (file: string, section: string, text: string) =>
      cli(['update', 'add', '--store', db, '--file', file, '--section', section, text], { cwd: temp.path });
    expect((await add('MEMORY.md', 'Deploys', 'Deploys go through staging first')).code).toBe(0);
    expect((await add('PROJECT.md', 'Releases', 'The release checklist lives in docs/release.md')).code).toBe(0);
    expect((await repomem(['index', '--store', db, '--embedder', 'local'], { cwd: temp.path })).code).toBe(0);

    const lexical = await cli(['search', '--store', db, '--json', 'staging'], { cwd: temp.path });
    const hybrid = await repomem(['search', '--store', db, '--json', 'staging'], {
      cwd: temp.path,
      env: cleanEnv({ REPOMEM_EMBEDDER: 'local' }),
    });
    expect(hybrid.code).toBe(0);
    expect(hybrid.stderr).toBe('');
    type Found = { results: { path: string }[] };
    const lexicalPaths = (jsonOf(lexical) as Found).results.map((hit) => hit.path);
    const hybridPaths = (JSON.parse(hybrid.stdout) as Found).results.map((hit) => hit.path);
    expect(lexicalPaths).toEqual(['MEMORY.md']);
    // The semantic ranking adds the other document; the word match stays first.
    expect(hybridPaths[0]).toBe('MEMORY.md');
    expect(hybridPaths).toContain('PROJECT.md');

    const learned = await cli(
      ['learnings', 'add', '--store', db, '--text', '**[Deploys]:** Production deploys need a green staging run.'],
      { cwd: temp.path },
    );
    expect(learned.code).toBe(0);
    const context = await repomem(
      // A generous source timeout: loading the model on a busy two-core machine can take longer
      // than the default 5 s, and this test is about ranking, not about timeouts.
      [
        'context',
        '--store',
        db,
        '--task',
        'ship the release to production',
        '--embedder',
        'local',
        '--timeout-ms',
        '60000',
        '--json',
      ],
      { cwd: temp.path },
    );
    expect(context.code).toBe(0);
    const hydrated = JSON.parse(context.stdout);
    expect(hydrated, context.stdout).toMatchObject({ ok: true, status: 'ok' });
    expect(hydrated.markdown).toContain('Production deploys need a green staging run.');
  }, 120_000);
});
