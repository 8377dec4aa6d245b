// Why: `git gc`, `git repack -ad` and `git prune` delete empty loose-object fan-out directories
// and pack loose objects while repomem writes; a write must retry what is safe (re-create the
// directory, write again) instead of failing with ENOENT, and leave a repository fsck accepts.
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitStore, openGitStore } from '../src/index.js';
import { freshRepository, fsckStrict, gitEnv, removeDirectory, text, utf8 } from './support.js';

let dir: string;
let store: GitStore;
beforeEach(async () => {
  dir = await freshRepository();
  store = await openGitStore({ dir });
});
afterEach(async () => {
  await store.close();
  await removeDirectory(dir);
});

/** Run git maintenance in a loop (bounded) until `stop()`; resolves with how many runs completed. */
function maintenanceLoop(cwd: string): { stop: () => Promise<number> } {
  const script = [
    'i=0',
    'while [ ! -e .git/stop-maintenance ] && [ $i -lt 400 ]; do',
    '  git gc --quiet >/dev/null 2>&1',
    '  git repack -adq >/dev/null 2>&1',
    '  git prune --expire=1.hour.ago >/dev/null 2>&1',
    '  i=$((i+1))',
    'done',
    'echo $i',
  ].join('\n');
  const child = spawn('bash', ['-c', script], { cwd, env: gitEnv, stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const done = new Promise<number>((resolve) => child.on('close', () => resolve(Number(output.trim()))));
  return {
    stop: async () => {
      const { writeFile } = await import('node:fs/promises');
      await writeFile(`${cwd}/.git/stop-maintenance`, '');
      return done;
    },
  };
}

describe('git store writes while git gc / repack / prune run', () => {
  it('every write is acknowledged and kept; the repository passes fsck --strict', async () => {
    const loop = maintenanceLoop(dir);
    const written: string[] = [];
    try {
      for (let index = 0; index < 80; index += 1) {
        // Distinct content in many fan-out directories, so directories are created and emptied.
        const path = `notes/n${index % 10}.md`;
        const content = `- note ${index} ${'x'.repeat(index % 7)}\n`;
        await store.write([{ kind: 'put', path, content: utf8(content) }]);
        written[index % 10] = content;
      }
    } finally {
      expect(await loop.stop()).toBeGreaterThan(0);
    }
    for (let index = 0; index < 10; index += 1) {
      expect(text((await store.get(`notes/n${index}.md`))?.content)).toBe(written[index]);
    }
    fsckStrict(dir);
  });
});
