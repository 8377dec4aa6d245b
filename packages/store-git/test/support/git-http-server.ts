// Why: the store-git remote tests' view of the published git smart-HTTP test server
// (src/testing, `@repomem/store-git/testing`): re-exported here so test imports keep one path,
// plus the fixture these tests share: one served bare repository and local clones of it.
import { createBareRepository, type GitHttpServer, startGitHttpServer } from '../../src/testing/index.js';
import { freshDirectory, freshRepository, git, removeDirectory } from '../support.js';

export * from '../../src/testing/index.js';

/** A served bare repository and a way to make local clones of it. */
export interface RemoteFixture {
  readonly server: GitHttpServer;
  /** Path of the bare repository on disk (for `git --git-dir` checks). */
  readonly bare: string;
  /** Its HTTP URL. */
  readonly url: string;
  /** A new local repository (`git init`, on `main`) with `origin` pointing at {@link RemoteFixture.url}. */
  clone(): Promise<string>;
  /** Stop the server and delete every directory made. */
  dispose(): Promise<void>;
}

/** Start a server with one empty bare repository `memory.git`. */
export async function startRemoteFixture(options: { token?: string } = {}): Promise<RemoteFixture> {
  const root = await freshDirectory('repomem-remote-');
  const bare = createBareRepository(root, 'memory.git');
  const server = await startGitHttpServer({ root, ...options });
  const url = server.url('memory.git');
  const made: string[] = [root];
  return {
    server,
    bare,
    url,
    clone: async () => {
      const dir = await freshRepository();
      made.push(dir);
      git(dir, ['remote', 'add', 'origin', url]);
      return dir;
    },
    dispose: async () => {
      await server.stop();
      await Promise.all(made.map((dir) => removeDirectory(dir)));
    },
  };
}
