// Why: memory that follows the code (issue 26) as a user meets it, through `runCli` on a real git
// repository and SQLite file: the rename reproduction (`git mv`, commit, `verify --all`
// keeps the memory at its new path), and `memories impact --base --head` in text and JSON.
import { join } from 'node:path';
import type { Citation } from '@repomem/core';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, cli, commitFiles, git, jsonOf, makeRepository } from './in-process.js';
import { makeTempDir } from './support.js';

const temp = makeTempDir('repomem-cli-follow-');
afterAll(() => temp.remove());

const REPO = 'acme/app';
const NET = [
  'import { request } from "undici";',
  'export const TIMEOUT_MS = 500;',
  'export const RETRIES = 3;',
  '',
].join('\n');
const EDIT = ['export const A = 1;', 'export const B = 2;', ''].join('\n');

let counter = 0;
let repoDir: string;
let db: string;

const memories = (...args: string[]): Promise<CliResult> =>
  cli(['memories', ...args, '--repo', REPO, '--store', `sqlite:${db}`], { cwd: repoDir });

async function store(subject: string, cite: string): Promise<string> {
  const result = await memories('store', '--subject', subject, '--fact', `${subject}.`, '--cite', cite, '--json');
  expect(result.code).toBe(0);
  return (jsonOf(result) as { memory: { id: string } }).memory.id;
}

beforeEach(() => {
  counter += 1;
  repoDir = join(temp.path, `case${counter}`, 'repo');
  db = join(temp.path, `case${counter}`, 'memories.db');
  makeRepository(repoDir, { 'src/net.ts': NET, 'src/edit.ts': EDIT });
});

describe('memories follow the code', () => {
  it('a rename is not a contradiction: git mv, commit, verify --all keeps the memory, re-anchored', async () => {
    const id = await store('network timeout', 'src/net.ts:2');
    git(repoDir, 'mv', 'src/net.ts', 'src/network.ts');
    git(repoDir, 'commit', '-q', '-m', 'rename net.ts');
    const verify = await memories('verify', '--all', '--json');
    expect(verify.code).toBe(0);
    const json = jsonOf(verify) as {
      verified: { id: string; citations: Record<string, unknown>[] }[];
      invalidated: [];
    };
    expect(json.invalidated).toEqual([]);
    expect(json.verified.map((memory) => memory.id)).toEqual([id]);
    const head = git(repoDir, 'rev-parse', 'HEAD').trim();
    expect(json.verified[0]?.citations[0]).toMatchObject({
      path: 'src/network.ts',
      line_start: 2,
      line_end: 2,
      verified_commit: head.slice(0, 12),
    });
  });

  it('verify --id after a rename keeps the memory and stores it at the new path', async () => {
    const id = await store('network timeout', 'src/net.ts:2');
    git(repoDir, 'mv', 'src/net.ts', 'src/network.ts');
    git(repoDir, 'commit', '-q', '-m', 'rename net.ts');
    const verify = await memories('verify', '--id', id);
    expect(verify).toMatchObject({ code: 0, stdout: `valid ${id}: network timeout (1 citation(s) re-anchored)\n` });
    const got = jsonOf(await memories('get', '--id', id, '--json')) as { memory: { citations: Citation[] } };
    expect(got.memory.citations[0]).toMatchObject({ path: 'src/network.ts', line_start: 2 });
  });

  it('impact --base --head lists re-anchored, invalidated and intact memories (text and JSON), writing nothing', async () => {
    const base = git(repoDir, 'rev-parse', 'HEAD').trim();
    const renamed = await store('network timeout', 'src/net.ts:2');
    const changed = await store('b value', 'src/edit.ts:2');
    const intact = await store('a value', 'src/edit.ts:1');
    git(repoDir, 'checkout', '-q', '-b', 'feature');
    git(repoDir, 'mv', 'src/net.ts', 'src/network.ts');
    commitFiles(repoDir, { 'src/edit.ts': EDIT.replace('B = 2', 'B = 20') }, 'rename and change');

    const text = await memories('impact', '--base', 'main', '--head', 'feature');
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      `impact of main..feature on 3 active memories in ${REPO} (source git:${repoDir}): 3 touched: invalidated 1, re-anchored 1, still valid 1, unknown 0`,
    );
    expect(lines[1]).toBe(`invalidated ${changed}: b value`);
    expect(lines[2]).toMatch(/^ {2}src\/edit\.ts:2: lines_changed: /);
    expect(lines).toContain(`re-anchored ${renamed}: network timeout`);
    expect(lines).toContain('  src/net.ts:2 -> src/network.ts:2');
    expect(lines).toContain(`still valid ${intact}: a value`);

    const json = jsonOf(await memories('impact', '--base', base, '--json')) as {
      outcome: string;
      counts: Record<string, number>;
      touched: { outcome: string; memory: { id: string } }[];
    };
    expect(json).toMatchObject({ ok: true, outcome: 'impact', base, head: 'HEAD', checked: 3 });
    expect(json.counts).toEqual({ invalidated: 1, unknown: 0, reanchored: 1, valid: 1 });
    expect(json.touched.map((impact) => [impact.memory.id, impact.outcome])).toEqual([
      [changed, 'invalidated'],
      [renamed, 'reanchored'],
      [intact, 'valid'],
    ]);
    const got = jsonOf(await memories('get', '--id', changed, '--json')) as { memory: { status: string } };
    expect(got.memory.status).toBe('active');
  });

  it('impact needs --base, and a git source', async () => {
    expect((await memories('impact')).code).toBe(1);
    const fromDir = await memories('impact', '--base', 'main', '--source', `dir:${repoDir}`, '--json');
    expect(fromDir.code).not.toBe(0);
    expect(JSON.stringify(jsonOf(fromDir))).toMatch(/cannot map lines/);
  });
});
