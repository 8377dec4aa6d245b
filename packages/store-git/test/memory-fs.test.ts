// Why: the store takes its file system and HTTP client by injection; this proves it on an
// in-memory fs (memfs): repositories created by isomorphic-git in memory pass core's conformance
// suite, the memory facade, bootstrap and the citation reader work there, and a memory-fs
// repository syncs with a real git smart-HTTP server through an injected, counting HTTP client,
// while nothing is written under the real directory the in-memory paths name.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRepomemError, openMemory } from '@repomem/core';
import { runStoreConformance } from '@repomem/core/testing';
import * as git from 'isomorphic-git';
import * as nodeHttp from 'isomorphic-git/http/node';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bootstrapMemoryBranch,
  createGitCitationReader,
  fetchMemoryBranch,
  type GitFileSystem,
  type GitHttpClient,
  type GitStore,
  initMemoryBranch,
  MEMORY_BRANCH_SEEDS,
  openGitStore,
  pushMemoryBranch,
  syncMemoryBranch,
} from '../src/index.js';
import { type RemoteFixture, startRemoteFixture } from './support/git-http-server.js';
import { createMemoryFileSystem, type MemoryFileSystem } from './support/memory-fs.js';
import { fsckStrict, gitEnv, text, utf8 } from './support.js';

const BRANCH = 'agent/memory';
const REF = `refs/heads/${BRANCH}`;

/**
 * A real, empty directory whose path the in-memory repositories live under: anything the code
 * wrote through Node's own fs by mistake would land here, so it must stay empty.
 */
const diskRoot = mkdtempSync(join(tmpdir(), 'repomem-memfs-'));
let repoCount = 0;
/** Files written into every memory fs made by this file (to show the writes happened, in memory). */
let memoryFilesSeen = 0;

afterAll(() => {
  rmSync(diskRoot, { recursive: true, force: true });
});

/** A fresh memory fs holding a repository made by isomorphic-git (`git init`, on `main`). */
async function memoryRepository(options: { bare?: boolean } = {}): Promise<MemoryFileSystem & { dir: string }> {
  const memory = createMemoryFileSystem();
  repoCount += 1;
  const dir = join(diskRoot, `repo-${repoCount}${options.bare ? '.git' : ''}`);
  await git.init({ fs: memory.isomorphicFs, dir, bare: options.bare ?? false, defaultBranch: 'main' });
  return { ...memory, dir };
}

/** Not-found errors of isomorphic-git (missing ref, object or path). */
function isNotFound(error: unknown): boolean {
  return error instanceof Error && error.name === 'NotFoundError';
}

/** Raw access for the conformance suite: isomorphic-git reading the branch on the same memory fs. */
const memoryFsOf = new WeakMap<GitStore, MemoryFileSystem>();

async function rawTip(store: GitStore, memory: MemoryFileSystem): Promise<string | undefined> {
  try {
    return await git.resolveRef({ fs: memory.isomorphicFs, gitdir: store.gitdir, ref: store.ref });
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

async function rawRead(store: GitStore, path: string): Promise<Uint8Array | undefined> {
  const memory = memoryFsOf.get(store);
  if (memory === undefined) throw new Error('store without a memory fs');
  const tip = await rawTip(store, memory);
  if (tip === undefined) return undefined;
  try {
    const { blob } = await git.readBlob({ fs: memory.isomorphicFs, gitdir: store.gitdir, oid: tip, filepath: path });
    return blob;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

async function rawList(store: GitStore): Promise<string[]> {
  const memory = memoryFsOf.get(store);
  if (memory === undefined) throw new Error('store without a memory fs');
  const tip = await rawTip(store, memory);
  if (tip === undefined) return [];
  return git.listFiles({ fs: memory.isomorphicFs, gitdir: store.gitdir, ref: tip });
}

runStoreConformance({
  name: 'git store conformance on a memory fs (object mode)',
  runner: { describe, it, expect, beforeEach, afterEach },
  createStore: async () => {
    const memory = await memoryRepository();
    const store = await openGitStore({ dir: memory.dir, fs: memory.fs });
    memoryFsOf.set(store, memory);
    return store;
  },
  openAnother: async (store) => {
    const memory = memoryFsOf.get(store);
    if (memory === undefined) throw new Error('unknown store');
    return openGitStore({ dir: store.dir, fs: memory.fs });
  },
  teardown: async (store) => {
    memoryFilesSeen += memoryFsOf.get(store)?.files().length ?? 0;
    await store.close();
  },
  rawRead,
  rawList,
});

describe('the conformance run on a memory fs', () => {
  it('wrote its repositories in memory only: the real directory their paths name stays empty', () => {
    expect(repoCount).toBeGreaterThan(10);
    expect(memoryFilesSeen).toBeGreaterThan(repoCount);
    expect(readdirSync(diskRoot)).toEqual([]);
  });
});

describe('memory facade, bootstrap and citations on a memory fs', () => {
  it('bootstraps the branch, init is idempotent, and bootstrapping again fails clearly', async () => {
    const memory = await memoryRepository();
    const created = await bootstrapMemoryBranch({ dir: memory.dir, fs: memory.fs, agentId: 'agent-mem' });
    expect(created.branch).toBe(BRANCH);
    expect([...created.files].sort()).toEqual(MEMORY_BRANCH_SEEDS.map((seed) => seed.path).sort());
    const again = await bootstrapMemoryBranch({ dir: memory.dir, fs: memory.fs }).catch((error: unknown) => error);
    expect(isRepomemError(again) && again.code).toBe('CONFLICT');
    expect(String((again as Error).message)).toContain('branch agent/memory already exists');
    const init = await initMemoryBranch({ dir: memory.dir, fs: memory.fs });
    expect(init).toMatchObject({ status: 'unchanged', commit: created.commit, created: [] });
    const other = await initMemoryBranch({ dir: memory.dir, fs: memory.fs, branch: 'agent/other' });
    expect(other.status).toBe('created');
    // isomorphic-git, reading the same memory fs, sees the root commit and its seeded tree.
    const [root] = await git.log({ fs: memory.isomorphicFs, dir: memory.dir, ref: REF });
    expect(root?.oid).toBe(created.commit);
    expect(root?.commit.author.name).toBe('agent-mem');
    expect(root?.commit.parent).toEqual([]);
    expect((await git.listFiles({ fs: memory.isomorphicFs, dir: memory.dir, ref: REF })).sort()).toEqual(
      [...created.files].sort(),
    );
    expect(readdirSync(diskRoot)).toEqual([]);
  });

  it('openMemory adds and replaces bullets; every edit is a commit in history, readable as of any revision', async () => {
    const memory = await memoryRepository();
    const bootstrap = await bootstrapMemoryBranch({ dir: memory.dir, fs: memory.fs });
    const store = await openGitStore({ dir: memory.dir, fs: memory.fs, agentId: 'agent-mem' });
    try {
      const facade = openMemory({ store, writeMetadata: { trailers: { 'Task-Id': 'T-9' } } });
      expect((await facade.add({ file: 'MEMORY.md', section: 'Conventions', text: 'use quokka' })).kind).toBe('added');
      expect((await facade.add({ file: 'MEMORY.md', section: 'Conventions', text: 'use quokka' })).kind).toBe(
        'duplicate',
      );
      const afterAdd = await store.revision();
      expect(
        (await facade.replace({ file: 'MEMORY.md', section: 'Conventions', match: 'quokka', with: 'use quokka 10' }))
          .kind,
      ).toBe('replaced');
      expect(await facade.readText('MEMORY.md')).toContain('- use quokka 10');
      expect((await facade.search('quokka')).results.map((result) => result.path)).toEqual(['MEMORY.md']);

      const history = await store.gitLog({ path: 'MEMORY.md' });
      expect(history.map((revision) => revision.message)).toEqual([
        'chore(memory): replace bullet in MEMORY.md',
        'chore(memory): add bullet to MEMORY.md',
        'chore(memory): bootstrap memory branch',
      ]);
      expect(history[0]?.trailers).toMatchObject({ 'Task-Id': 'T-9' });
      expect(history[0]?.author.name).toBe('agent-mem');
      expect(history[2]?.oid).toBe(bootstrap.commit);
      const then = await store.readAt('MEMORY.md', afterAdd);
      expect(then.status === 'found' && text(then.document.content)).toContain('- use quokka\n');

      // The same commits, seen by isomorphic-git on the same memory fs.
      const log = await git.log({ fs: memory.isomorphicFs, dir: memory.dir, ref: REF });
      expect(log.map((entry) => entry.oid)).toEqual(history.map((revision) => revision.oid));
      expect(readdirSync(diskRoot)).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('the citation reader reads a file committed on main at HEAD, and names a missing one', async () => {
    const memory = await memoryRepository();
    const fs = memory.isomorphicFs;
    await fs.promises.mkdir(join(memory.dir, 'src'), { recursive: true });
    await fs.promises.writeFile(join(memory.dir, 'src/config.ts'), 'export const API_VERSION = 3;\n');
    await git.add({ fs, dir: memory.dir, filepath: 'src/config.ts' });
    const head = await git.commit({
      fs,
      dir: memory.dir,
      message: 'add config',
      author: { name: 'Test Human', email: 'human@example.com', timestamp: 1_700_000_000, timezoneOffset: 0 },
    });
    // The memory branch next to it does not disturb HEAD.
    await bootstrapMemoryBranch({ dir: memory.dir, fs: memory.fs });
    const reader = createGitCitationReader({ dir: memory.dir, fs: memory.fs });
    const source = await reader.read({ repo: 'acme/app', path: 'src/config.ts' });
    const { oid: blobSha } = await git.readBlob({ fs, dir: memory.dir, oid: head, filepath: 'src/config.ts' });
    expect(source).toEqual({ kind: 'text', text: 'export const API_VERSION = 3;\n', blobSha, revision: head });
    expect(await reader.read({ repo: 'acme/app', path: 'src/config.ts', ref: 'main' })).toEqual(source);
    expect(await reader.read({ repo: 'acme/app', path: 'src/gone.ts' })).toEqual({ kind: 'missing', revision: head });
    const memoryFile = await reader.read({ repo: 'acme/app', path: 'README.md', ref: BRANCH });
    expect(memoryFile.kind).toBe('text');
    expect(readdirSync(diskRoot)).toEqual([]);
  });
});

describe('injected HTTP: a memory-fs repository syncs with a real git smart-HTTP server', () => {
  let remote: RemoteFixture;
  const stores: GitStore[] = [];

  beforeEach(async () => {
    remote = await startRemoteFixture();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await remote.dispose();
  });

  /** isomorphic-git's Node client behind a counter: every request the sync makes goes through it. */
  function countingHttp(): GitHttpClient & { requests: string[] } {
    const requests: string[] = [];
    return {
      requests,
      request: (request) => {
        requests.push(`${request.method ?? 'GET'} ${new URL(request.url).pathname}${new URL(request.url).search}`);
        return nodeHttp.request(request);
      },
    };
  }

  /** A memory-fs clone: isomorphic-git's `git init` plus an `origin` remote at the served URL. */
  async function memoryClone(): Promise<MemoryFileSystem & { dir: string }> {
    const memory = await memoryRepository();
    await git.addRemote({ fs: memory.isomorphicFs, dir: memory.dir, remote: 'origin', url: remote.url });
    return memory;
  }

  async function openOn(memory: { dir: string; fs: GitFileSystem }, agentId: string): Promise<GitStore> {
    const store = await openGitStore({ dir: memory.dir, fs: memory.fs, agentId });
    stores.push(store);
    return store;
  }

  function bareGit(args: string[]): string {
    return execFileSync('git', ['--git-dir', remote.bare, ...args], { env: gitEnv })
      .toString('utf8')
      .trim();
  }

  it('pushes through the injected client, the git CLI reads the result, and a fetch brings it back', async () => {
    const a = await memoryClone();
    const storeA = await openOn(a, 'agent-a');
    const added = await openMemory({ store: storeA }).add({ file: 'MEMORY.md', section: 'Notes', text: 'from memory' });
    expect(added.kind).toBe('added');
    const tipA = await storeA.revision();

    const httpA = countingHttp();
    const serverBefore = remote.server.requests();
    const pushed = await syncMemoryBranch({ dir: a.dir, fs: a.fs, http: httpA, durable: false });
    expect(pushed).toMatchObject({ status: 'pushed', commit: tipA, previous: null, attempts: 1 });
    // Every request reached the server through the injected client, and only through it.
    expect(httpA.requests.length).toBeGreaterThanOrEqual(2);
    expect(httpA.requests).toContain('POST /memory.git/git-receive-pack');
    expect(remote.server.requests() - serverBefore).toBe(httpA.requests.length);

    // The real git CLI on the bare repository sees the commit written in memory.
    expect(bareGit(['rev-parse', BRANCH])).toBe(tipA);
    expect(bareGit(['show', `${BRANCH}:MEMORY.md`])).toContain('- from memory');
    expect(bareGit(['log', '--format=%an <%ae>', BRANCH])).toBe('agent-a <agent@localhost>');
    fsckStrict(remote.bare);
    // The tracking ref was recorded in memory, as git would.
    expect(await git.resolveRef({ fs: a.isomorphicFs, dir: a.dir, ref: `refs/remotes/origin/${BRANCH}` })).toBe(tipA);

    // A second memory-fs repository (its own volume) fetches it back, then fast-forwards to it.
    const b = await memoryClone();
    const httpB = countingHttp();
    const fetched = await fetchMemoryBranch({ dir: b.dir, fs: b.fs, http: httpB });
    expect(fetched).toEqual({ status: 'fetched', commit: tipA, local: null });
    expect(httpB.requests).toContain('POST /memory.git/git-upload-pack');
    expect(b.files().some((path) => path.includes('/objects/pack/pack-') && path.endsWith('.idx'))).toBe(true);
    const synced = await syncMemoryBranch({ dir: b.dir, fs: b.fs, http: httpB });
    expect(synced).toEqual({ status: 'fetched_only', commit: tipA, previous: null });
    const storeB = await openOn(b, 'agent-b');
    expect(text(await storeB.get('MEMORY.md').then((document) => document?.content))).toContain('- from memory');

    // B edits and pushes (fast-forward); A's plain push is then rejected, and A's sync re-applies.
    await storeB.write([{ kind: 'put', path: 'notes/b.md', content: utf8('from b\n') }]);
    expect(await pushMemoryBranch({ dir: b.dir, fs: b.fs, http: httpB })).toMatchObject({
      status: 'pushed',
      previous: tipA,
    });
    await storeA.write([{ kind: 'put', path: 'notes/a.md', content: utf8('from a\n') }]);
    const rejected = await pushMemoryBranch({ dir: a.dir, fs: a.fs, http: httpA });
    expect(rejected.status).toBe('rejected');
    const merged = await syncMemoryBranch({ dir: a.dir, fs: a.fs, http: httpA });
    expect(merged).toMatchObject({ status: 'pushed', reapplied: 1 });
    expect(bareGit(['ls-tree', '-r', '--name-only', BRANCH]).split('\n')).toEqual([
      'MEMORY.md',
      'notes/a.md',
      'notes/b.md',
    ]);
    expect(bareGit(['rev-list', '--count', BRANCH])).toBe('3');
    fsckStrict(remote.bare);
    expect(readdirSync(diskRoot)).toEqual([]);
  });

  it('an http option that is not a client is refused before anything is sent', async () => {
    const a = await memoryClone();
    const error = await syncMemoryBranch({
      dir: a.dir,
      fs: a.fs,
      http: {} as unknown as GitHttpClient,
    }).catch((caught: unknown) => caught);
    expect(isRepomemError(error) && error.code).toBe('INVALID_ARGUMENT');
    expect(remote.server.requests()).toBe(0);
  });
});
