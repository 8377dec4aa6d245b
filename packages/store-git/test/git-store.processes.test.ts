import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openGitStore } from '../src/index.js';
import { builtStoreGitUrl, freshRepository, fsckStrict, git, removeDirectory, text, utf8 } from './support.js';

const fixtures = join(import.meta.dirname, 'fixtures');
const BRANCH = 'agent/memory';
let storeUrl: string;
let dir: string;

beforeAll(() => {
  storeUrl = builtStoreGitUrl();
}, 120_000);
beforeEach(async () => {
  dir = await freshRepository();
});
afterEach(async () => {
  await removeDirectory(dir);
});

function run(args: string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
} {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>(
    (resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code, signal) => resolve({ code, signal, output }));
    },
  );
  return { child, done };
}

/** Start the crash writer, wait until it pauses at `hook`, SIGKILL it; returns the commit it had built. */
async function killAt(hook: 'afterObjectsWritten' | 'whileRefLocked'): Promise<string> {
  const { child, done } = run([join(fixtures, 'crash-writer.mjs'), storeUrl, dir, hook]);
  let buffered = '';
  const paused = new Promise<string>((resolve) => {
    child.stdout?.on('data', (chunk) => {
      buffered += chunk;
      const match = /paused ([0-9a-f]{40})\n/.exec(buffered);
      if (match?.[1]) {
        child.kill('SIGKILL');
        resolve(match[1]);
      }
    });
  });
  const [commit, status] = await Promise.all([paused, done]);
  expect(status.signal, status.output).toBe('SIGKILL');
  return commit;
}

describe('git store across processes', () => {
  it('two processes each add 25 bullets to one MEMORY.md through the facade: all 50 land, fsck is clean', async () => {
    const workers = 2;
    const count = 25;
    const results = await Promise.all(
      Array.from(
        { length: workers },
        (_, worker) => run([join(fixtures, 'facade-writer.mjs'), storeUrl, dir, String(worker), String(count)]).done,
      ),
    );
    for (const result of results) {
      expect(result, result.output).toMatchObject({ code: 0 });
      expect(JSON.parse(result.output).outcomes).toEqual({ added: count });
    }
    const memory = git(dir, ['show', `${BRANCH}:MEMORY.md`]);
    const bullets = memory.split('\n').filter((line) => line.startsWith('- '));
    const expected = Array.from({ length: workers }, (_, worker) =>
      Array.from({ length: count }, (_, index) => `- worker ${worker} item ${index}`),
    ).flat();
    expect([...bullets].sort()).toEqual([...expected].sort());
    expect(memory.startsWith('# Memory\n\n## Notes\n')).toBe(true);
    // One commit per edit, each attributed to its worker.
    expect(git(dir, ['rev-list', '--count', BRANCH])).toBe(String(workers * count));
    const authors = git(dir, ['log', '--format=%an|%(trailers:key=Task-Id,valueonly)', BRANCH]).split('\n');
    for (let worker = 0; worker < workers; worker += 1) {
      expect(authors.filter((line) => line === `worker-${worker}|worker-${worker}`)).toHaveLength(count);
    }
    fsckStrict(dir);
    expect(git(dir, ['status', '--porcelain'])).toBe('');
  }, 60_000);

  it('a writer killed after writing its objects, before the ref update, leaves the branch at its previous commit', async () => {
    const store = await openGitStore({ dir });
    const seeded = await store.commitWith([{ kind: 'put', path: 'MEMORY.md', content: utf8('# Memory\n- safe\n') }]);
    if (seeded.status !== 'committed') throw new Error('expected a commit');
    const orphan = await killAt('afterObjectsWritten');
    expect(git(dir, ['rev-parse', BRANCH])).toBe(seeded.revision);
    expect(git(dir, ['cat-file', '-t', orphan])).toBe('commit');
    expect(text((await store.get('MEMORY.md'))?.content)).toBe('# Memory\n- safe\n');
    expect(git(dir, ['show', `${BRANCH}:MEMORY.md`])).toBe('# Memory\n- safe');
    fsckStrict(dir);
    // The next writer goes ahead at once, on the previous commit.
    const next = await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('# Memory\n- next\n') }]);
    if (next.status !== 'committed') throw new Error('expected a commit');
    expect(git(dir, ['rev-parse', `${BRANCH}^`])).toBe(seeded.revision);
    fsckStrict(dir);
    await store.close();
  }, 60_000);

  it('a writer killed while holding the ref lock leaves the branch unchanged; its stale lock is broken later', async () => {
    const store = await openGitStore({ dir, lockTimeoutMs: 300 });
    const seeded = await store.commitWith([{ kind: 'put', path: 'MEMORY.md', content: utf8('# Memory\n- safe\n') }]);
    if (seeded.status !== 'committed') throw new Error('expected a commit');
    const orphan = await killAt('whileRefLocked');
    const lock = join(dir, '.git', 'refs', 'heads', 'agent', 'memory.lock');
    expect((await readFile(lock, 'utf8')).trim()).toBe(orphan);
    expect(git(dir, ['rev-parse', BRANCH])).toBe(seeded.revision);
    expect(text((await store.get('MEMORY.md'))?.content)).toBe('# Memory\n- safe\n');
    fsckStrict(dir);
    // Fresh lock: writers wait, then time out, like git would.
    const blocked = await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('x\n') }]).then(
      () => 'written',
      (error: { code?: string }) => error.code,
    );
    expect(blocked).toBe('LOCK_TIMEOUT');
    // Once older than lockStaleMs it is treated as left over by a crash.
    const old = new Date(Date.now() - 120_000);
    await utimes(lock, old, old);
    const next = await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('# Memory\n- next\n') }]);
    expect(next.status).toBe('committed');
    await expect(stat(lock)).rejects.toThrow();
    expect(git(dir, ['rev-parse', `${BRANCH}^`])).toBe(seeded.revision);
    fsckStrict(dir);
    await store.close();
  }, 60_000);
});
