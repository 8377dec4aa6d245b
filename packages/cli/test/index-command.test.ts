// Why: `repomem index` keeps vectors with the memory and embeds only what changed; `doctor` says
// which embedder is configured and how many chunks lack vectors. Runs the built binary (the
// embedder packages are loaded at run time beside it, as an installed CLI does) with the real
// local model on one chunk.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, jsonOf } from './in-process.js';
import { assertBuilt, cleanEnv, makeTempDir, repomem } from './support.js';

assertBuilt();
const temp = makeTempDir('repomem-cli-index-');
afterAll(() => temp.remove());

describe('repomem index', () => {
  it('embeds new chunks once, reports them, and doctor counts what lacks vectors', async () => {
    const db = `sqlite:${join(temp.path, 'memory.db')}`;
    const added = await cli(
      [
        'update',
        'add',
        '--store',
        db,
        '--file',
        'MEMORY.md',
        '--section',
        'Deploys',
        'Deploys go through staging first',
      ],
      { cwd: temp.path },
    );
    expect(added.code).toBe(0);
    const none = jsonOf(await cli(['doctor', '--store', db, '--json'], { cwd: temp.path }));
    expect(none.checks).toContainEqual(
      expect.objectContaining({ check: 'embedder', status: 'ok', detail: expect.stringMatching(/^none: /) }),
    );
    const before = await repomem(['doctor', '--store', db], {
      cwd: temp.path,
      env: cleanEnv({ REPOMEM_EMBEDDER: 'local' }),
    });
    expect(before.code).toBe(0);
    expect(before.stdout).toContain(
      'warn  embedder: local:use-lite-512@energetic-ai-0.2.0 (512 dimensions): 1 chunks, 1 without vectors',
    );
    expect(before.stdout).toContain('fix: repomem index --embedder local');
    const first = JSON.parse((await repomem(['index', '--store', db, '--json'], { cwd: temp.path })).stdout);
    expect(first).toMatchObject({
      ok: true,
      embedder: 'local:use-lite-512@energetic-ai-0.2.0',
      dimensions: 512,
      embedded: 1,
      reused: 0,
      removed: 0,
      chunks: 1,
      missing: 0,
    });
    const again = await repomem(['index', '--store', db, '--embedder', 'local'], { cwd: temp.path });
    expect(again.stdout).toMatch(/: 0 chunks embedded, 1 reused, 0 removed \(1 chunks, [\d.]+ s\)\n$/);
    const after = JSON.parse(
      (await repomem(['doctor', '--store', db, '--embedder', 'local', '--json'], { cwd: temp.path })).stdout,
    );
    expect(after.checks).toContainEqual(expect.objectContaining({ check: 'embedder', status: 'ok' }));
  });

  it('indexes a memory directory and refuses an unknown embedder with the known ones', async () => {
    writeFileSync(join(temp.path, 'MEMORY.md'), '# Memory\n\n- Use pnpm\n');
    const unknown = await cli(['index', '--dir', temp.path, '--embedder', 'word2vec'], { cwd: temp.path });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown embedder "word2vec" (known: bedrock, local, openai)');
    const help = await cli(['index', '--help'], { cwd: temp.path });
    expect(help.stdout).toContain('Usage: repomem index');
  });
});
