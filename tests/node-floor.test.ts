// Why: the oldest supported Node is stated in many places (every package.json, the README, the
// toolchain script, the CLI launcher) and a newcomer meets each of them; they must agree with
// the root package.json's engines.node, which is where the floor is decided (`node:sqlite` has
// FTS5 from 22.16 on). And the CLI run by an older Node must stop at once and say what to do,
// not fail halfway through a command.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { meetsNodeFloor, NODE_FLOOR } from '../scripts/node-floor.mjs';
import { REPO_ROOT, readJson } from './support/repo.js';

const run = promisify(execFile);
const launcher = join(REPO_ROOT, 'packages', 'cli', 'bin', 'repomem.js');
const floorMajorMinor = NODE_FLOOR.split('.').slice(0, 2).join('.');

/** Every package.json of the workspace: the root, packages/*, examples. */
function manifests(): string[] {
  const packages = readdirSync(join(REPO_ROOT, 'packages'))
    .map((name) => join(REPO_ROOT, 'packages', name, 'package.json'))
    .filter((file) => existsSync(file));
  return [join(REPO_ROOT, 'package.json'), ...packages, join(REPO_ROOT, 'examples', 'package.json')];
}

/** Node binaries on PATH (and the usual system places) older than the floor, one per version. */
function olderNodes(): { path: string; version: string }[] {
  const candidates = new Set<string>();
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && existsSync(join(dir, 'node'))) candidates.add(join(dir, 'node'));
  }
  for (const path of ['/usr/local/bin/node', '/usr/bin/node', '/bin/node']) if (existsSync(path)) candidates.add(path);
  const byVersion = new Map<string, string>();
  for (const candidate of candidates) {
    try {
      const version = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
      if (!meetsNodeFloor(version) && !byVersion.has(version)) byVersion.set(version, realpathSync(candidate));
    } catch {
      // not runnable: ignore
    }
  }
  return [...byVersion].map(([version, path]) => ({ path, version }));
}

const scratch = mkdtempSync(join(tmpdir(), 'repomem-floor-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe(`the Node floor (${NODE_FLOOR}, from engines.node of the root package.json)`, () => {
  it('is engines.node of every package.json', () => {
    const engines = manifests().map((file) => [file.slice(REPO_ROOT.length + 1), readJson(file).engines?.node]);
    expect(engines).toEqual(engines.map(([file]) => [file, `>=${floorMajorMinor}`]));
  });

  it('is the floor the CLI launcher checks', () => {
    const text = readFileSync(launcher, 'utf8');
    const declared = /const NODE_FLOOR = \[(\d+), (\d+)\];/.exec(text);
    expect(declared?.slice(1, 3).join('.')).toBe(floorMajorMinor);
  });

  it('is the floor the toolchain script provisions for', () => {
    const floor = execFileSync('bash', ['-c', 'source scripts/toolchain.sh && printf %s "$REPOMEM_NODE_FLOOR"'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    });
    expect(floor).toBe(floorMajorMinor);
  });

  it('is the only Node version the READMEs state as required', () => {
    const readmes = [
      'README.md',
      'examples/README.md',
      ...readdirSync(join(REPO_ROOT, 'packages')).map((name) => `packages/${name}/README.md`),
    ].filter((file) => existsSync(join(REPO_ROOT, file)));
    const stated = readmes.flatMap((file) =>
      [...readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(/Node(?:\.js)? *>= *(\d+\.\d+)/g)].map(
        (match) => `${file}: ${match[1]}`,
      ),
    );
    expect(stated).toContain(`README.md: ${floorMajorMinor}`);
    expect(stated.filter((entry) => !entry.endsWith(`: ${floorMajorMinor}`))).toEqual([]);
  });
});

describe('the repomem launcher', () => {
  it('runs the CLI under this Node, without Node 22\u2019s experimental-SQLite warning', async () => {
    const { stdout } = await run(process.execPath, [launcher, '--help'], { cwd: scratch });
    expect(stdout).toMatch(/^Usage: repomem /);
    const cwd = mkdtempSync(join(scratch, 'stats-'));
    const stats = await run(process.execPath, [launcher, 'memories', 'stats', '--json'], { cwd });
    expect(JSON.parse(stats.stdout)).toMatchObject({ ok: true, outcome: 'stats' });
    expect(stats.stderr).toBe('');
  });

  const older = olderNodes();
  const reason = `no Node older than ${NODE_FLOOR} on PATH or in /usr/local/bin, /usr/bin`;
  it.skipIf(older.length === 0)(
    `stops under an older Node, says what to do and exits 1${older.length === 0 ? ` (skipped: ${reason})` : ''}`,
    async () => {
      for (const node of older) {
        const cwd = mkdtempSync(join(scratch, 'old-node-'));
        const failure = await run(node.path, [launcher, 'init'], { cwd }).then(
          () => undefined,
          (error: { code?: number; stdout?: string; stderr?: string }) => error,
        );
        expect(failure, `launcher under Node ${node.version} should fail`).toBeDefined();
        expect(failure?.code).toBe(1);
        expect(failure?.stdout).toBe('');
        expect(failure?.stderr).toContain(`Node ${floorMajorMinor} or later is required`);
        expect(failure?.stderr).toContain(`this is Node ${node.version}`);
        expect(failure?.stderr).toContain('./dev pnpm exec repomem');
        expect(failure?.stderr).toContain('.toolchain/node_modules/.bin');
        // Stopped before doing anything: init created nothing.
        expect(readdirSync(cwd)).toEqual([]);
      }
    },
  );
});
