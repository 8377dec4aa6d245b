// Why: what the driver suite cannot see on the git driver: its versions are git's own ids (what
// `git hash-object` and `git rev-parse` say), a batch is one commit carrying the caller's
// metadata, a twin created by another writer between the kit's check and the commit is still
// refused, and a namespace the driver does not keep is a clear error.
import { isRepomemError } from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGitDriver, type GitDriver, openGitStore } from '../src/index.js';
import { freshRepository, fsckStrict, git, removeDirectory, utf8 } from './support.js';

let dir: string;
let driver: GitDriver;
beforeEach(async () => {
  dir = await freshRepository();
  driver = await createGitDriver({ dir });
});
afterEach(async () => {
  await driver.close();
  await removeDirectory(dir);
});

const put = (key: string, text: string, namespace = 'documents') => ({
  namespace,
  key,
  value: utf8(text),
  version: 'ignored',
});

describe('the git driver', () => {
  it('stores blob ids and state commit ids as versions, and one commit per batch with the metadata', async () => {
    const result = await driver.write([put('a.md', '- a\n'), put('b/c.md', '- c\n')], {
      message: 'chore(memory): two',
      trailers: { 'Task-Id': 't-9' },
    });
    expect(result).toEqual({
      status: 'committed',
      versions: [
        git(dir, ['hash-object', '--stdin'], { input: '- a\n' }),
        git(dir, ['hash-object', '--stdin'], { input: '- c\n' }),
      ],
    });
    expect(git(dir, ['log', '--format=%s|%(trailers:key=Task-Id,valueonly)', 'agent/memory']).trim()).toBe(
      'chore(memory): two|t-9',
    );
    expect(await driver.revision.current()).toBe(git(dir, ['rev-parse', 'agent/memory']));
    const state = await driver.write([put('cursor', '{"n":1}', 'state')]);
    expect(state).toEqual({
      status: 'committed',
      versions: [git(dir, ['rev-parse', 'refs/agent-memory-state/cursor'])],
    });
    expect(git(dir, ['show', 'refs/agent-memory-state/cursor:state.json'])).toBe('{\n  "n": 1\n}');
    fsckStrict(dir);
  });

  it('refuses a twin another writer created after the kit checked for twins', async () => {
    expect(await driver.twins.candidates('documents', ['notes.md'])).toEqual([]);
    const other = await openGitStore({ dir });
    expect((await other.write([{ kind: 'put', path: 'Notes.md', content: utf8('- theirs\n') }])).status).toBe(
      'committed',
    );
    await other.close();
    const error = await driver.write([put('notes.md', '- mine\n')]).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isRepomemError(error, 'INVALID_PATH')).toBe(true);
    expect(git(dir, ['ls-tree', '--name-only', 'agent/memory'])).toBe('Notes.md');
  });

  it('keeps only the documents and state namespaces', async () => {
    const error = await driver.read('vectors', ['x']).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(isRepomemError(error, 'INVALID_ARGUMENT')).toBe(true);
  });
});
