// Why: what a sync does with the data and inputs it is given. Fixture items (real `gh` output)
// served by the loopback API come back with exactly the fixture's keys, nesting and value types;
// bad input (no token, a rejected token, a token without a permission, a missing repository, a
// malformed name, another repository's state, a corrupt state) fails clearly or is ignored the way
// Sepo ignores it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { RepomemError } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SYNC_STATE_KEY, syncGitHubMirror } from '../../src/index.js';
import {
  generateRepository,
  type LoopbackGitHub,
  loadFixtureRepository,
  startLoopbackGitHub,
} from '../../src/testing/index.js';
import { STORE_KINDS, syncOptions, TOKEN, tempDir } from './support/mirror-env.js';

const fixtureRoot = resolve(__dirname, '../../../../../shared/fixtures/sepo-memory-tree');
const fixturePresent = existsSync(join(fixtureRoot, 'github'));
const decoder = new TextDecoder();
const directory = STORE_KINDS.find((kind) => kind.name === 'directory')!;
const git = STORE_KINDS.find((kind) => kind.name === 'git')!;
const sqlite = STORE_KINDS.find((kind) => kind.name === 'sqlite')!;

/** The shape of a JSON value: keys in order, and the type of every leaf. */
function skeleton(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(skeleton);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).map(([key, inner]) => [key, skeleton(inner)]);
  }
  return value === null ? 'null' : typeof value;
}

let github: LoopbackGitHub;
let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  github = await startLoopbackGitHub();
  ({ dir, cleanup } = await tempDir());
});
afterEach(async () => {
  await github.close();
  await cleanup();
});

describe.skipIf(!fixturePresent)('fixture items', () => {
  it('are written with exactly the keys, nesting and value types of the gh files', async () => {
    github.data.addRepository(await loadFixtureRepository(fixtureRoot, { owner: 'self-evolving', name: 'repo' }));
    const store = await sqlite.open(dir);
    try {
      const result = await syncGitHubMirror(syncOptions(github, store, 'self-evolving/repo'));
      expect(result.status).toBe('complete');
      const names = readdirSync(join(fixtureRoot, 'github')).filter((name) =>
        /^(issue|pull|discussion)-\d+\.json$/.test(name),
      );
      expect(result.changed).toHaveLength(names.length);
      for (const name of names) {
        const expected = JSON.parse(readFileSync(join(fixtureRoot, 'github', name), 'utf8'));
        const written = await store.get(`github/self-evolving/repo/${name}`);
        expect(written, name).toBeDefined();
        const actual = JSON.parse(decoder.decode(written?.content));
        expect(skeleton(actual), name).toEqual(skeleton(expected));
      }
    } finally {
      await store.close();
    }
  });
});

describe('bad input', () => {
  beforeEach(() => {
    github.data.addRepository(generateRepository({ owner: 'acme', name: 'app', issues: 5, pullRequests: 2, seed: 1 }));
  });

  it('refuses to run without a token, naming the variables to set', async () => {
    const store = await directory.open(dir);
    try {
      const options = { ...syncOptions(github, store), token: undefined };
      await expect(syncGitHubMirror(options)).rejects.toThrow(/no GitHub token.*GITHUB_TOKEN.*GH_TOKEN/);
    } finally {
      await store.close();
    }
  });

  it('reports a token GitHub rejects', async () => {
    const store = await directory.open(dir);
    try {
      const options = { ...syncOptions(github, store), token: 'not-the-token' };
      await expect(syncGitHubMirror(options)).rejects.toThrow(/GitHub rejected the token \(401/);
    } finally {
      await store.close();
    }
  });

  it('reports a missing repository', async () => {
    const store = await directory.open(dir);
    try {
      const failure = await syncGitHubMirror(syncOptions(github, store, 'acme/nothing')).catch((error) => error);
      expect(failure).toBeInstanceOf(RepomemError);
      expect(failure.code).toBe('NOT_FOUND');
      expect(failure.message).toMatch(/no repository acme\/nothing/);
    } finally {
      await store.close();
    }
  });

  it.each(['acme', 'acme/app/extra', '/app', 'acme/..', 'ac me/app', 'acme/ap p'])(
    'refuses the malformed repository %j before any request',
    async (repo) => {
      const store = await directory.open(dir);
      try {
        await expect(syncGitHubMirror(syncOptions(github, store, repo))).rejects.toThrow(/invalid repository/);
        expect(github.stats().requests).toBe(0);
      } finally {
        await store.close();
      }
    },
  );

  it('ignores the state of another repository (fresh cursor, as Sepo) and replaces it', async () => {
    const store = await directory.open(dir);
    try {
      const cursors = { issues: '2100-01-01T00:00:00Z', pulls: '2100-01-01T00:00:00Z', discussions: '' };
      await store.state.put(SYNC_STATE_KEY, { schema_version: 1, repo_slug: 'other/repo', cursors });
      const result = await syncGitHubMirror(syncOptions(github, store));
      expect(result.status).toBe('complete');
      expect(result.items).toEqual({ issues: 5, pulls: 2, discussions: 0 });
      expect(result.notices.join('\n')).toMatch(/belongs to "other\/repo".*fresh cursor/);
      expect((await store.state.get(SYNC_STATE_KEY))?.value).toMatchObject({ repo_slug: 'acme/app' });
    } finally {
      await store.close();
    }
  });

  it('ignores a state that is not a sync state', async () => {
    const store = await directory.open(dir);
    try {
      await store.state.put(SYNC_STATE_KEY, ['not', 'a', 'state']);
      const result = await syncGitHubMirror(syncOptions(github, store));
      expect(result.items).toEqual({ issues: 5, pulls: 2, discussions: 0 });
      expect(result.notices.join('\n')).toMatch(/fresh cursor/);
    } finally {
      await store.close();
    }
  });

  it('ignores a state ref whose state.json is not JSON, and replaces it', async () => {
    const store = await git.open(dir);
    try {
      const repo = join(dir, 'repo');
      const env = {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@e',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@e',
      };
      const run = (args: string[], input?: string) =>
        execFileSync('git', ['-C', repo, ...args], { env, ...(input === undefined ? {} : { input }) })
          .toString()
          .trim();
      const blob = run(['hash-object', '-w', '--stdin'], '{"schema_version": 1, oops');
      const tree = run(['mktree'], `100644 blob ${blob}\tstate.json\n`);
      run(['update-ref', 'refs/agent-memory-state/sync', run(['commit-tree', tree, '-m', 'corrupt'])]);
      const result = await syncGitHubMirror(syncOptions(github, store));
      expect(result.status).toBe('complete');
      expect(result.items).toEqual({ issues: 5, pulls: 2, discussions: 0 });
      expect(result.notices.join('\n')).toMatch(/corrupt/);
      expect(JSON.parse(run(['show', 'refs/agent-memory-state/sync:state.json']))).toMatchObject({
        repo_slug: 'acme/app',
      });
    } finally {
      await store.close();
    }
  });
});

describe('tokens with limited access (loopback grants)', () => {
  beforeEach(async () => {
    await github.close();
    github = await startLoopbackGitHub({
      tokens: [
        { token: 'no-issues', permissions: { issues: 'none' } },
        { token: 'no-discussions', kind: 'app', permissions: { discussions: 'none' } },
        { token: 'other-repos', repositories: ['acme/other'] },
      ],
    });
    github.data.addRepository(
      generateRepository({ owner: 'acme', name: 'app', issues: 3, pullRequests: 2, discussions: 2, seed: 1 }),
    );
  });

  it('names the missing permission', async () => {
    const store = await directory.open(dir);
    try {
      const failure = await syncGitHubMirror({ ...syncOptions(github, store), token: 'no-issues' }).catch(
        (error) => error,
      );
      expect(failure).toBeInstanceOf(RepomemError);
      expect(failure.message).toMatch(/cannot read issues of acme\/app .*Issues: read/);
      expect(failure.details).toMatchObject({ reason: 'access_denied', permission: 'Issues: read' });
    } finally {
      await store.close();
    }
  });

  it('skips discussions with a notice when only they are refused', async () => {
    const store = await directory.open(dir);
    try {
      const result = await syncGitHubMirror({ ...syncOptions(github, store), token: 'no-discussions' });
      expect(result.status).toBe('complete');
      expect(result.items).toEqual({ issues: 3, pulls: 2, discussions: 0 });
      expect(result.notices.join('\n')).toMatch(/Discussions: read/);
    } finally {
      await store.close();
    }
  });

  it('reports a repository the token cannot see as not found', async () => {
    const store = await directory.open(dir);
    try {
      const failure = await syncGitHubMirror({ ...syncOptions(github, store), token: 'other-repos' }).catch(
        (error) => error,
      );
      expect(failure.code).toBe('NOT_FOUND');
      expect(failure.message).toMatch(/or the token cannot see it/);
    } finally {
      await store.close();
    }
  });
});

describe('a token without a permission', () => {
  let server: Server;
  let url: string;
  let answer: unknown;

  beforeEach(async () => {
    // GitHub's own answer to a fine-grained token or App lacking a permission (HTTP 200, FORBIDDEN).
    server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, {
          'content-type': 'application/json',
          'x-ratelimit-remaining': '4999',
          'x-ratelimit-limit': '5000',
        });
        response.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    await new Promise((closed) => server.close(closed));
  });

  it('fails with a message naming the permission', async () => {
    answer = {
      data: { repository: null },
      errors: [
        { type: 'FORBIDDEN', path: ['repository', 'pullRequests'], message: 'Resource not accessible by integration' },
      ],
    };
    const store = await directory.open(dir);
    try {
      const failure = await syncGitHubMirror({ repo: 'acme/app', store, token: TOKEN, baseUrl: url, env: {} }).catch(
        (error) => error,
      );
      expect(failure).toBeInstanceOf(RepomemError);
      expect(failure.message).toMatch(/cannot read pullRequests of acme\/app.*Pull requests: read/);
      expect(failure.details).toMatchObject({ reason: 'access_denied', permission: 'Pull requests: read' });
    } finally {
      await store.close();
    }
  });
});
