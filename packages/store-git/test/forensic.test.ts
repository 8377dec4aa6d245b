import {
  isRepomemError,
  openMemory,
  recordCheckpoint,
  recordPromotion,
  recordSessionClose,
  type WriteSource,
} from '@repomem/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type GitStore, openGitStore, sourceOfTrailers } from '../src/index.js';
import { freshRepository, fsckStrict, git, removeDirectory, text, utf8 } from './support.js';

const BRANCH = 'agent/memory';
let dir: string;
let store: GitStore;
let now: Date;

beforeEach(async () => {
  dir = await freshRepository();
  now = new Date('2026-05-01T10:00:00Z');
  store = await openGitStore({ dir, clock: () => now });
});
afterEach(async () => {
  await store.close();
  await removeDirectory(dir);
});

const at = (iso: string): Date => new Date(iso);

async function put(path: string, content: string, message?: string): Promise<string> {
  const result = await store.write([{ kind: 'put', path, content: utf8(content) }], message ? { message } : undefined);
  if (result.status !== 'committed') throw new Error('expected a commit');
  return store.revision();
}

async function remove(path: string): Promise<string> {
  const result = await store.write([{ kind: 'delete', path }]);
  if (result.status !== 'committed') throw new Error('expected a commit');
  return store.revision();
}

async function expectInvalid(action: () => Promise<unknown>): Promise<void> {
  let caught: unknown;
  try {
    await action();
  } catch (error) {
    caught = error;
  }
  expect(isRepomemError(caught, 'INVALID_ARGUMENT'), String(caught)).toBe(true);
}

describe('history', () => {
  it('lists revisions newest first with time, subject, body, trailers and author', async () => {
    const first = await put('MEMORY.md', '- a\n', 'chore(memory): add bullet to MEMORY.md');
    now = at('2026-05-02T10:00:00Z');
    const second = await store.commit([{ kind: 'put', path: 'PROJECT.md', content: utf8('# Project\n') }], {
      subject: 'chore(memory): seed project',
      body: 'Why: the project file was missing.\nSecond line.',
      trailers: { 'Task-Id': 'T-1', 'Thread-Key': 'acme/rocket:issue:7:implement:default' },
    });
    if (second.status !== 'committed') throw new Error('expected a commit');
    const history = await store.gitLog();
    expect(history.map((revision) => revision.oid)).toEqual([second.commit, first]);
    const [latest, oldest] = history;
    expect(latest).toMatchObject({
      message: 'chore(memory): seed project',
      body: 'Why: the project file was missing.\nSecond line.',
      trailers: { 'Task-Id': 'T-1', 'Thread-Key': 'acme/rocket:issue:7:implement:default' },
      author: { name: 'repomem', email: 'agent@localhost' },
      parents: [first],
    });
    expect(latest?.time.toISOString()).toBe('2026-05-02T10:00:00.000Z');
    expect(oldest).toMatchObject({
      message: 'chore(memory): add bullet to MEMORY.md',
      body: '',
      trailers: {},
      parents: [],
    });
    expect(oldest?.time.toISOString()).toBe('2026-05-01T10:00:00.000Z');
    // The git CLI agrees.
    expect(git(dir, ['log', '--format=%H %ct %s', BRANCH]).split('\n')).toEqual(
      history.map((revision) => `${revision.oid} ${revision.time.getTime() / 1000} ${revision.message}`),
    );
  });

  it('with a path lists only the commits that added, changed or deleted that document', async () => {
    const a1 = await put('MEMORY.md', '1\n');
    await put('PROJECT.md', 'p\n');
    const a2 = await put('MEMORY.md', '2\n');
    await put('daily/2026-05-01.md', 'd\n');
    const removed = await remove('MEMORY.md');
    const a3 = await put('MEMORY.md', '3\n');
    const ids = (await store.gitLog({ path: 'MEMORY.md' })).map((revision) => revision.oid);
    expect(ids).toEqual([a3, removed, a2, a1]);
    expect(git(dir, ['log', '--format=%H', BRANCH, '--', 'MEMORY.md']).split('\n')).toEqual(ids);
    expect((await store.gitLog({ path: 'MEMORY.md', limit: 2 })).map((revision) => revision.oid)).toEqual([
      a3,
      removed,
    ]);
    expect(await store.gitLog({ path: 'nothing.md' })).toEqual([]);
    expect(await store.gitLog({ limit: 0 })).toEqual([]);
    await expectInvalid(() => store.gitLog({ limit: -1 }));
  });

  it('is empty before the first commit', async () => {
    expect(await store.gitLog()).toEqual([]);
    expect(await store.readAt('MEMORY.md', new Date())).toEqual({ status: 'no_revision' });
    expect((await store.diff(null)).changes).toEqual([]);
  });
});

describe('readAt', () => {
  it('answers "what did it know then" by commit id, abbreviated id, branch name and date', async () => {
    const v1 = await put('MEMORY.md', '- believed A\n');
    now = at('2026-05-08T10:00:00Z');
    const v2 = await put('MEMORY.md', '- believed B\n');
    now = at('2026-05-15T10:00:00Z');
    await store.write([{ kind: 'delete', path: 'MEMORY.md' }]);

    const byId = await store.readAt('MEMORY.md', v1);
    expect(byId.status).toBe('found');
    if (byId.status === 'found') {
      expect(text(byId.document.content)).toBe('- believed A\n');
      expect(byId.document.version).toBe(git(dir, ['rev-parse', `${v1}:MEMORY.md`]));
      expect(byId.revision.oid).toBe(v1);
    }
    const byShort = await store.readAt('MEMORY.md', v2.slice(0, 10));
    expect(byShort.status === 'found' ? text(byShort.document.content) : byShort.status).toBe('- believed B\n');

    const lastWeek = await store.readAt('MEMORY.md', at('2026-05-10T00:00:00Z'));
    expect(lastWeek.status === 'found' ? text(lastWeek.document.content) : lastWeek.status).toBe('- believed B\n');
    const exactly = await store.readAt('MEMORY.md', at('2026-05-01T10:00:00Z'));
    expect(exactly.status === 'found' ? exactly.revision.oid : exactly.status).toBe(v1);
    expect((await store.readAt('MEMORY.md', at('2026-05-16T00:00:00Z'))).status).toBe('absent');
    expect((await store.readAt('MEMORY.md', BRANCH)).status).toBe('absent');
    expect(await store.readAt('MEMORY.md', at('2026-04-01T00:00:00Z'))).toEqual({ status: 'no_revision' });
  });

  it('an unknown revision is NOT_FOUND, an invalid date INVALID_ARGUMENT', async () => {
    await put('MEMORY.md', 'x\n');
    let caught: unknown;
    try {
      await store.readAt('MEMORY.md', 'no-such-branch');
    } catch (error) {
      caught = error;
    }
    expect(isRepomemError(caught, 'NOT_FOUND')).toBe(true);
    await expectInvalid(() => store.readAt('MEMORY.md', new Date('not a date')));
    await expectInvalid(() => store.readAt('MEMORY.md', 'a..b'));
  });
});

describe('diff', () => {
  it('reports added, modified and deleted documents with old and new versions', async () => {
    const base = await put('MEMORY.md', '1\n');
    await store.write([
      { kind: 'put', path: 'MEMORY.md', content: utf8('2\n') },
      { kind: 'put', path: 'daily/2026-05-01.md', content: utf8('d\n') },
    ]);
    const added = await put('PROJECT.md', 'p\n');
    const removed = await remove('daily/2026-05-01.md');
    const diff = await store.diff(base);
    expect(diff.from).toBe(base);
    expect(diff.to).toBe(removed);
    expect(diff.changes).toEqual([
      {
        path: 'MEMORY.md',
        status: 'modified',
        oldVersion: git(dir, ['rev-parse', `${base}:MEMORY.md`]),
        newVersion: git(dir, ['rev-parse', `${BRANCH}:MEMORY.md`]),
      },
      {
        path: 'PROJECT.md',
        status: 'added',
        oldVersion: null,
        newVersion: git(dir, ['rev-parse', `${BRANCH}:PROJECT.md`]),
      },
    ]);
    const everything = await store.diff(null, added);
    expect(everything.changes.map((change) => `${change.status} ${change.path}`)).toEqual([
      'added MEMORY.md',
      'added PROJECT.md',
      'added daily/2026-05-01.md',
    ]);
    const nameStatus = git(dir, ['diff', '--name-status', base, BRANCH]).split('\n');
    expect(nameStatus).toEqual(['M\tMEMORY.md', 'A\tPROJECT.md']);
    expect((await store.diff(BRANCH, BRANCH)).changes).toEqual([]);
  });
});

describe('forensic moments on GitStore (commit ids and no-ops)', () => {
  it('checkpoint commits the given writes as "checkpoint: <note>" and is a no-op when nothing changes', async () => {
    await put('MEMORY.md', '- a\n');
    const revision = await store.revision();
    expect(await store.checkpoint('before refactor')).toEqual({ status: 'noop', revision, versions: {} });
    const same = await store.checkpoint('still nothing', {
      writes: [{ kind: 'put', path: 'MEMORY.md', content: utf8('- a\n') }],
    });
    expect(same.status).toBe('noop');
    expect(git(dir, ['rev-list', '--count', BRANCH])).toBe('1');
    const result = await store.checkpoint('before refactor', {
      writes: [{ kind: 'put', path: 'MEMORY.md', content: utf8('- a\n- b\n') }],
      trailers: { 'Task-Id': 'T-9' },
    });
    expect(result.status).toBe('committed');
    expect(git(dir, ['log', '-1', '--format=%s|%(trailers:key=Task-Id,valueonly)', BRANCH])).toBe(
      'checkpoint: before refactor|T-9',
    );
    await expectInvalid(() => store.checkpoint(''));
    await expectInvalid(() => store.checkpoint('two\nlines'));
  });

  it('session-close records the session and agent ids in the body and as trailers', async () => {
    const result = await store.sessionClose({
      sessionId: 'sess-123',
      agentId: 'agent-7',
      writes: [{ kind: 'put', path: 'MEMORY.md', content: utf8('- learned x\n') }],
    });
    expect(result.status).toBe('committed');
    expect(git(dir, ['log', '-1', '--format=%s%n%b', BRANCH])).toBe(
      'session-close\nSession sess-123 of agent agent-7 closed.\n\nSession-Id: sess-123\nAgent-Id: agent-7',
    );
    const [revision] = await store.gitLog();
    expect(revision).toMatchObject({
      message: 'session-close',
      body: 'Session sess-123 of agent agent-7 closed.',
      trailers: { 'Session-Id': 'sess-123', 'Agent-Id': 'agent-7' },
    });
    expect((await store.sessionClose({ sessionId: 'sess-124', agentId: 'agent-7' })).status).toBe('noop');
    await expectInvalid(() => store.sessionClose({ sessionId: '', agentId: 'a' }));
  });

  it('promote lists the promoted memories with their scores in the body', async () => {
    const result = await store.promote(
      [
        { text: 'Use pnpm, never npm', score: 0.92 },
        { text: 'CI runs on 2 cores', score: 0.7 },
      ],
      { writes: [{ kind: 'put', path: 'MEMORY.md', content: utf8('- Use pnpm, never npm\n- CI runs on 2 cores\n') }] },
    );
    expect(result.status).toBe('committed');
    expect(git(dir, ['log', '-1', '--format=%B', BRANCH])).toBe(
      'promote\n\nPromoted 2 memories:\n- Use pnpm, never npm (score 0.92)\n- CI runs on 2 cores (score 0.7)',
    );
    await expectInvalid(() => store.promote([]));
    await expectInvalid(() => store.promote([{ text: 'x', score: Number.NaN }]));
    await expectInvalid(() => store.promote([{ text: 'a\nb', score: 1 }]));
    fsckStrict(dir);
  });

  it('a moment whose writes fail a precondition reports the conflict and commits nothing', async () => {
    await put('MEMORY.md', '- a\n');
    const result = await store.checkpoint('x', {
      writes: [{ kind: 'put', path: 'MEMORY.md', content: utf8('- b\n'), expectedVersion: null }],
    });
    expect(result.status).toBe('conflict');
    expect(git(dir, ['rev-list', '--count', BRANCH])).toBe('1');
  });
});

describe('the store contract history (store-neutral)', () => {
  it('log maps commits to entries: revision = commit id, author = "Name <email>", newest first', async () => {
    const first = await put('MEMORY.md', '1\n', 'chore(memory): first');
    now = at('2026-05-02T10:00:00Z');
    await put('PROJECT.md', 'p\n');
    const third = await put('MEMORY.md', '2\n', 'chore(memory): third');
    const log = await store.history.log();
    expect(log.map((entry) => entry.revision)).toEqual(git(dir, ['rev-list', BRANCH]).split('\n'));
    expect(log[0]).toEqual({
      revision: third,
      time: at('2026-05-02T10:00:00Z'),
      message: 'chore(memory): third',
      body: '',
      trailers: {},
      author: 'repomem <agent@localhost>',
      parents: [log[1]?.revision],
    });
    expect((await store.history.log({ path: 'MEMORY.md' })).map((entry) => entry.revision)).toEqual([third, first]);
    expect(await store.history.log({ path: 'MEMORY.md', limit: 1 })).toHaveLength(1);
  });

  it('log with hidePrefix leaves out revisions whose every change lies under the prefix', async () => {
    const first = await put('MEMORY.md', '1\n');
    await put('.repomem/tasks/episode/acme/b/b-1.json', '{}\n');
    const mixed = await store.commit(
      [
        { kind: 'put', path: 'MEMORY.md', content: utf8('2\n') },
        { kind: 'put', path: '.repomem/verified/acme/b/x.json', content: utf8('{}\n') },
      ],
      { subject: 'chore(memory): both' },
    );
    await remove('.repomem/tasks/episode/acme/b/b-1.json');
    const shown = await store.history.log({ hidePrefix: '.repomem/' });
    expect(shown.map((entry) => entry.revision)).toEqual([mixed.status === 'committed' ? mixed.revision : '', first]);
    expect(await store.history.log({ hidePrefix: '.repomem' })).toHaveLength(2);
    expect(await store.history.log({ hidePrefix: '.repomem/', limit: 1 })).toHaveLength(1);
    expect(await store.history.log()).toHaveLength(4);
  });

  it('readAt answers with the entry of the revision read, and NOT_FOUND for an unknown commit id', async () => {
    const first = await put('MEMORY.md', 'then\n');
    now = at('2026-05-03T10:00:00Z');
    await put('MEMORY.md', 'now\n');
    const then = await store.history.readAt('MEMORY.md', first);
    expect(then.status).toBe('found');
    if (then.status === 'found') {
      expect(text(then.document.content)).toBe('then\n');
      expect(then.revision.revision).toBe(first);
      expect(then.revision.author).toBe('repomem <agent@localhost>');
    }
    const byDate = await store.history.readAt('MEMORY.md', at('2026-05-02T00:00:00Z'));
    expect(byDate.status === 'found' ? text(byDate.document.content) : byDate.status).toBe('then\n');
    expect(await store.history.readAt('MEMORY.md', at('2026-04-01T00:00:00Z'))).toEqual({ status: 'no_revision' });
    let caught: unknown;
    try {
      await store.history.readAt('MEMORY.md', 'f'.repeat(40));
    } catch (error) {
      caught = error;
    }
    expect(isRepomemError(caught, 'NOT_FOUND'), String(caught)).toBe(true);
  });
});

describe('write metadata', () => {
  const source = { commit: 'ab'.repeat(20), branch: 'feature/login' };

  it('records the summary, the body and the source as Source-Commit / Source-Branch trailers', async () => {
    const result = await store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('- a\n') }], {
      message: 'chore(memory): add bullet\n\nFirst paragraph.',
      body: 'Why: learned while fixing the login flow.',
      trailers: { 'Task-Id': 'T-5' },
      source,
    });
    expect(result).toEqual({
      status: 'committed',
      versions: { 'MEMORY.md': git(dir, ['rev-parse', `${BRANCH}:MEMORY.md`]) },
    });
    expect(git(dir, ['log', '-1', '--format=%B', BRANCH])).toBe(
      'chore(memory): add bullet\n\nFirst paragraph.\n\nWhy: learned while fixing the login flow.\n\n' +
        `Task-Id: T-5\nSource-Commit: ${source.commit}\nSource-Branch: feature/login`,
    );
    expect(git(dir, ['log', '-1', '--format=%(trailers:key=Source-Branch,valueonly)', BRANCH])).toBe('feature/login');
    const [entry] = await store.history.log();
    expect(entry?.body).toBe('First paragraph.\n\nWhy: learned while fixing the login flow.');
    expect(entry?.trailers).toEqual({
      'Task-Id': 'T-5',
      'Source-Commit': source.commit,
      'Source-Branch': 'feature/login',
    });
    expect(sourceOfTrailers(entry?.trailers ?? {})).toEqual(source);
    fsckStrict(dir);
  });

  it('refuses a malformed source before anything is written', async () => {
    const write = (bad: unknown) =>
      store.write([{ kind: 'put', path: 'MEMORY.md', content: utf8('x') }], { source: bad as unknown as WriteSource });
    await expectInvalid(() => write({ commit: 'abc' }));
    await expectInvalid(() => write({ branch: 'a..b' }));
    await expectInvalid(() => write({ branch: 'refs/heads/main' }));
    await expectInvalid(() => write('main'));
    await expectInvalid(() => store.write([], { body: 7 as unknown as string }));
    expect(await store.revision()).toBe('empty');
  });
});

describe('forensic moments through the core service', () => {
  it('recordCheckpoint, recordSessionClose and recordPromotion commit with the greppable messages', async () => {
    const checkpoint = await recordCheckpoint(store, 'before refactor', {
      writes: [{ kind: 'put', path: 'MEMORY.md', content: utf8('- a\n') }],
      trailers: { 'Task-Id': 'T-1' },
      source: { branch: 'main' },
    });
    expect(checkpoint.status).toBe('committed');
    expect(git(dir, ['log', '-1', '--format=%B', BRANCH])).toBe(
      'checkpoint: before refactor\n\nTask-Id: T-1\nSource-Branch: main',
    );
    const close = await recordSessionClose(store, {
      sessionId: 'sess-9',
      agentId: 'agent-2',
      writes: [{ kind: 'put', path: 'MEMORY.md', content: utf8('- a\n- b\n') }],
    });
    expect(close.status).toBe('committed');
    expect(git(dir, ['log', '-1', '--format=%B', BRANCH])).toBe(
      'session-close\n\nSession sess-9 of agent agent-2 closed.\n\nSession-Id: sess-9\nAgent-Id: agent-2',
    );
    const promoted = await recordPromotion(store, [{ text: 'Use pnpm', score: 0.9 }], {
      writes: [{ kind: 'put', path: 'PROJECT.md', content: utf8('- Use pnpm\n') }],
    });
    expect(promoted.status).toBe('committed');
    expect(git(dir, ['log', '-1', '--format=%B', BRANCH])).toBe(
      'promote\n\nPromoted 1 memory:\n- Use pnpm (score 0.9)',
    );
    expect(git(dir, ['log', '--format=%s', '--grep=^checkpoint: ', BRANCH])).toBe('checkpoint: before refactor');
    expect((await store.history.log()).map((entry) => entry.message)).toEqual([
      'promote',
      'session-close',
      'checkpoint: before refactor',
    ]);
    fsckStrict(dir);
  });

  it('a moment that changes nothing makes no commit; a failed precondition is a conflict', async () => {
    await put('MEMORY.md', '- a\n');
    const revision = await store.revision();
    expect(await recordCheckpoint(store, 'nothing new')).toEqual({ status: 'committed', versions: {} });
    expect(await store.revision()).toBe(revision);
    const conflict = await recordCheckpoint(store, 'x', {
      writes: [{ kind: 'put', path: 'MEMORY.md', content: utf8('- b\n'), expectedVersion: null }],
    });
    expect(conflict.status).toBe('conflict');
    expect(git(dir, ['rev-list', '--count', BRANCH])).toBe('1');
  });
});

describe('through the memory facade', () => {
  it('bullet edits become commits with the facade message and the configured trailers', async () => {
    const memory = openMemory({ store, writeMetadata: { trailers: { 'Task-Id': 'T-77', 'Prompt-Version': 'p-1' } } });
    expect((await memory.add({ file: 'MEMORY.md', section: 'Conventions', text: 'use pnpm' })).kind).toBe('added');
    expect((await memory.add({ file: 'MEMORY.md', section: 'Conventions', text: 'use pnpm' })).kind).toBe('duplicate');
    expect(
      (await memory.replace({ file: 'MEMORY.md', section: 'Conventions', match: 'pnpm', with: 'use pnpm 10' })).kind,
    ).toBe('replaced');
    expect(
      git(dir, ['log', '--format=%s|%(trailers:key=Task-Id,valueonly,separator=%x2C)', BRANCH]).split('\n'),
    ).toEqual(['chore(memory): replace bullet in MEMORY.md|T-77', 'chore(memory): add bullet to MEMORY.md|T-77']);
    expect(git(dir, ['show', `${BRANCH}:MEMORY.md`])).toBe('# Memory\n\n## Conventions\n- use pnpm 10');
    const search = await memory.search('pnpm');
    expect(search.results.map((result) => result.path)).toEqual(['MEMORY.md']);
    fsckStrict(dir);
  });
});
