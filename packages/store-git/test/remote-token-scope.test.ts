// Why: a token belongs to one host. `$GITHUB_TOKEN` must never reach a remote that is not GitHub
// (the CLI passes `githubTokenHosts(env)` with it), and no token travels over plain http except to
// loopback. Checked on the Authorization header the loopback smart-HTTP server actually receives.
import { isRepomemError } from '@repomem/core';
import { afterEach, describe, expect, it } from 'vitest';
import { githubTokenHosts, openGitStore, syncMemoryBranch } from '../src/index.js';
import { type RemoteFixture, startRemoteFixture } from './support/git-http-server.js';
import { freshRepository, removeDirectory, utf8 } from './support.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function setup(): Promise<{ remote: RemoteFixture; dir: string }> {
  const remote = await startRemoteFixture();
  cleanup.push(() => remote.dispose());
  const dir = await remote.clone();
  const store = await openGitStore({ dir });
  await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('# Memory\n- keep me\n') }]);
  await store.close();
  return { remote, dir };
}

const TOKEN = 'test-token-value';

describe('remote sync: a token goes only to the host it belongs to', () => {
  it('sends an explicit token to the loopback remote it was given for', async () => {
    const { remote, dir } = await setup();
    expect(await syncMemoryBranch({ dir, token: TOKEN })).toMatchObject({ status: 'pushed' });
    const sent = remote.server.authorizations();
    expect(sent.length).toBeGreaterThan(0);
    const expected = `Basic ${Buffer.from(`x-access-token:${TOKEN}`).toString('base64')}`;
    expect(sent.every((header) => header === expected)).toBe(true);
  });

  it('does not send a GitHub token to a remote that is not on the GitHub host', async () => {
    const { remote, dir } = await setup();
    const tokenHosts = githubTokenHosts({});
    expect(tokenHosts).toEqual(['github.com']);
    expect(await syncMemoryBranch({ dir, token: TOKEN, tokenHosts })).toMatchObject({ status: 'pushed' });
    expect(remote.server.authorizations().length).toBeGreaterThan(0);
    expect(remote.server.authorizations().every((header) => header === undefined)).toBe(true);
  });

  it('sends it when GITHUB_SERVER_URL names the remote host', async () => {
    const { remote, dir } = await setup();
    const tokenHosts = githubTokenHosts({ GITHUB_SERVER_URL: remote.server.baseUrl });
    expect(await syncMemoryBranch({ dir, token: TOKEN, tokenHosts })).toMatchObject({ status: 'pushed' });
    expect(remote.server.authorizations().every((header) => header?.startsWith('Basic ') === true)).toBe(true);
  });

  it('refuses to send a token over plain http to a host that is not loopback, before any request', async () => {
    const dir = await freshRepository();
    cleanup.push(() => removeDirectory(dir));
    let caught: unknown;
    try {
      await syncMemoryBranch({ dir, url: 'http://memory.example.test/memory.git', token: TOKEN });
    } catch (error) {
      caught = error;
    }
    expect(isRepomemError(caught, 'INVALID_ARGUMENT')).toBe(true);
    expect((caught as Error).message).toMatch(/plain http to memory\.example\.test/);
    expect((caught as Error).message).not.toContain(TOKEN);
  });
});
