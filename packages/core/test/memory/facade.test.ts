// Why: the memory facade over the real in-memory store: outcomes reach the store, modes are
// enforced before the store is touched, bad input loses nothing, and concurrent writers never lose
// an update.
import { describe, expect, it } from 'vitest';
import { openMemory } from '../../src/memory/facade.js';
import { MEMORY_README } from '../../src/memory/readme-template.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';
import { readStoreText, snapshot, wrapStore } from './helpers.js';

const md = (...lines: string[]): string => `${lines.join('\n')}\n`;
const fixedClock = () => new Date('2026-05-01T23:30:00-05:00'); // 2026-05-02 in UTC

describe('openMemory: bullet edits', () => {
  it('add seeds MEMORY.md, then replace/remove edit it, with commit messages', async () => {
    const store = wrapStore(createInMemoryStore());
    const memory = openMemory({ store, writeMetadata: { trailers: { 'Task-Id': 't1' } } });

    expect(await memory.add({ file: 'MEMORY.md', section: 'Conventions', text: 'Use pnpm' })).toEqual({
      kind: 'added',
      path: 'MEMORY.md',
      bullet: '- Use pnpm',
    });
    expect(await memory.add({ file: 'MEMORY.md', section: 'conventions', text: 'Keep tests fast' })).toMatchObject({
      kind: 'added',
    });
    expect(await memory.add({ file: 'MEMORY.md', section: 'Conventions', text: 'Use pnpm' })).toMatchObject({
      kind: 'duplicate',
    });
    expect(
      await memory.replace({ file: 'MEMORY.md', section: 'Conventions', match: 'PNPM', with: 'Use pnpm 10' }),
    ).toMatchObject({ kind: 'replaced', from: '- Use pnpm', bullet: '- Use pnpm 10' });
    expect(await memory.remove({ file: 'MEMORY.md', section: 'Conventions', match: 'tests' })).toMatchObject({
      kind: 'removed',
      bullet: '- Keep tests fast',
    });
    expect(await readStoreText(store, 'MEMORY.md')).toBe(md('# Memory', '', '## Conventions', '- Use pnpm 10'));
    expect(store.writes.map((write) => write.metadata)).toEqual([
      { trailers: { 'Task-Id': 't1' }, message: 'chore(memory): add bullet to MEMORY.md' },
      { trailers: { 'Task-Id': 't1' }, message: 'chore(memory): add bullet to MEMORY.md' },
      { trailers: { 'Task-Id': 't1' }, message: 'chore(memory): replace bullet in MEMORY.md' },
      { trailers: { 'Task-Id': 't1' }, message: 'chore(memory): remove bullet from MEMORY.md' },
    ]);
    expect(store.writes[0]?.operations[0]).toMatchObject({ kind: 'put', path: 'MEMORY.md', expectedVersion: null });
  });

  it('outcomes that write nothing do not call the store', async () => {
    const store = wrapStore(
      createInMemoryStore({ initialDocuments: { 'PROJECT.md': md('## Goals', '- a b', '- a c') } }),
    );
    const memory = openMemory({ store });
    expect(await memory.remove({ file: 'PROJECT.md', section: 'Goals', match: 'a' })).toMatchObject({
      kind: 'ambiguous',
      candidates: ['- a b', '- a c'],
    });
    expect(await memory.remove({ file: 'PROJECT.md', section: 'Goals', match: 'zzz' })).toMatchObject({
      kind: 'no_match',
    });
    expect(await memory.add({ file: 'PROJECT.md', section: 'Other', text: 'x' })).toEqual({
      kind: 'missing_section',
      path: 'PROJECT.md',
      section: 'Other',
      sections: ['Goals'],
    });
    expect(store.writes).toHaveLength(0);
  });

  it('dailyAppend writes the UTC day of the clock, or the given date', async () => {
    const store = createInMemoryStore();
    const memory = openMemory({ store, clock: fixedClock });
    expect(await memory.dailyAppend({ text: 'Triaged #42' })).toEqual({
      kind: 'added',
      path: 'daily/2026-05-02.md',
      bullet: '- Triaged #42',
    });
    expect(await memory.dailyAppend({ text: 'Triaged #42' })).toMatchObject({ kind: 'duplicate' });
    await memory.dailyAppend({ text: 'Older', date: '2026-04-30' });
    expect(await readStoreText(store, 'daily/2026-05-02.md')).toBe(
      md('# Daily log for 2026-05-02', '', '## Activity', '- Triaged #42'),
    );
    expect(await readStoreText(store, 'daily/2026-04-30.md')).toContain('- Older');
  });

  it('keeps a CRLF file CRLF', async () => {
    const store = createInMemoryStore({ initialDocuments: { 'MEMORY.md': '# Memory\r\n\r\n## A\r\n- a\r\n' } });
    await openMemory({ store }).add({ file: 'MEMORY.md', section: 'A', text: 'b' });
    expect(await readStoreText(store, 'MEMORY.md')).toBe('# Memory\r\n\r\n## A\r\n- a\r\n- b\r\n');
  });

  it('refuses a duplicated section header and leaves the file untouched', async () => {
    const before = md('## A', '- a', '## a', '- b');
    const store = createInMemoryStore({ initialDocuments: { 'MEMORY.md': before } });
    expect(await openMemory({ store }).add({ file: 'MEMORY.md', section: 'A', text: 'c' })).toEqual({
      kind: 'duplicate_section',
      path: 'MEMORY.md',
      section: 'A',
      lines: [1, 3],
    });
    expect(await readStoreText(store, 'MEMORY.md')).toBe(before);
  });
});

describe('openMemory: bad input leaves the store untouched', () => {
  const before = md('# Memory', '', '## A', '- a');

  it.each([
    [
      'a file other than MEMORY.md/PROJECT.md',
      (m: ReturnType<typeof openMemory>) => m.add({ file: '../etc/passwd' as never, section: 'A', text: 'x' }),
      /MEMORY\.md, PROJECT\.md/,
    ],
    [
      'an empty section',
      (m: ReturnType<typeof openMemory>) => m.add({ file: 'MEMORY.md', section: '  ', text: 'x' }),
      /section/,
    ],
    [
      'a multi-line section',
      (m: ReturnType<typeof openMemory>) => m.add({ file: 'MEMORY.md', section: 'A\n## B', text: 'x' }),
      /single line/,
    ],
    [
      'empty bullet text',
      (m: ReturnType<typeof openMemory>) => m.add({ file: 'MEMORY.md', section: 'A', text: ' - ' }),
      /text/,
    ],
    [
      'an empty match',
      (m: ReturnType<typeof openMemory>) => m.replace({ file: 'MEMORY.md', section: 'A', match: '', with: 'x' }),
      /match/,
    ],
    [
      'an empty with',
      (m: ReturnType<typeof openMemory>) => m.replace({ file: 'MEMORY.md', section: 'A', match: 'a', with: '\n' }),
      /with/,
    ],
    [
      'an empty remove match',
      (m: ReturnType<typeof openMemory>) => m.remove({ file: 'MEMORY.md', section: 'A', match: ' ' }),
      /match/,
    ],
    [
      'a NUL byte in added text',
      (m: ReturnType<typeof openMemory>) => m.add({ file: 'MEMORY.md', section: 'A', text: 'x\u0000y' }),
      /text contains a control character \(U\+0000/,
    ],
    [
      'an ANSI escape in replacement text',
      (m: ReturnType<typeof openMemory>) =>
        m.replace({ file: 'MEMORY.md', section: 'A', match: 'a', with: '\u001b[31mred' }),
      /with contains a control character \(U\+001B/,
    ],
    [
      'a C1 control in daily text',
      (m: ReturnType<typeof openMemory>) => m.dailyAppend({ text: 'x\u009by', date: '2026-05-01' }),
      /U\+009B/,
    ],
    [
      'a control character in a section name',
      (m: ReturnType<typeof openMemory>) => m.add({ file: 'MEMORY.md', section: 'A\u0007', text: 'x' }),
      /section contains a control character/,
    ],
    [
      'an added bullet over 4 KiB',
      (m: ReturnType<typeof openMemory>) => m.add({ file: 'MEMORY.md', section: 'A', text: 'x'.repeat(4095) }),
      /at most 4096 bytes/,
    ],
    [
      'a replacement bullet over 4 KiB (multi-byte characters counted in bytes)',
      (m: ReturnType<typeof openMemory>) =>
        m.replace({ file: 'MEMORY.md', section: 'A', match: 'a', with: 'é'.repeat(2048) }),
      /at most 4096 bytes/,
    ],
    [
      'a daily bullet over 4 KiB',
      (m: ReturnType<typeof openMemory>) => m.dailyAppend({ text: 'x'.repeat(10_000_000), date: '2026-05-01' }),
      /at most 4096 bytes/,
    ],
    [
      'a malformed date',
      (m: ReturnType<typeof openMemory>) => m.dailyAppend({ text: 'x', date: '2026/05/01' }),
      /YYYY-MM-DD/,
    ],
    [
      'an impossible date',
      (m: ReturnType<typeof openMemory>) => m.dailyAppend({ text: 'x', date: '2026-02-30' }),
      /real calendar day/,
    ],
  ])('%s -> INVALID_ARGUMENT', async (_name, call, message) => {
    const store = createInMemoryStore({ initialDocuments: { 'MEMORY.md': before } });
    const initial = await snapshot(store);
    await expect(call(openMemory({ store }))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message });
    expect(await snapshot(store)).toEqual(initial);
  });

  it.each([
    ['invalid UTF-8', new Uint8Array([35, 32, 0xff, 0xfe, 10])],
    ['a UTF-16 byte order mark', new Uint8Array([0xff, 0xfe, 35, 0, 32, 0])],
  ])('a MEMORY.md with %s -> BINARY_FILE', async (_name, bytes) => {
    const store = createInMemoryStore({ initialDocuments: { 'MEMORY.md': bytes } });
    const initial = await snapshot(store);
    const memory = openMemory({ store });
    await expect(memory.add({ file: 'MEMORY.md', section: 'A', text: 'x' })).rejects.toMatchObject({
      code: 'BINARY_FILE',
      message: /MEMORY\.md/,
    });
    await expect(memory.readText('MEMORY.md')).rejects.toMatchObject({ code: 'BINARY_FILE' });
    expect(await snapshot(store)).toEqual(initial);
  });

  it('a MEMORY.md holding a NUL byte in valid UTF-8 stays editable: the bullet holding it can be removed', async () => {
    const store = createInMemoryStore({
      initialDocuments: { 'MEMORY.md': md('# Memory', '', '## A', '- bad\u0000one', '- good') },
    });
    const memory = openMemory({ store });
    expect(await memory.readText('MEMORY.md')).toContain('bad\u0000one');
    await expect(memory.add({ file: 'MEMORY.md', section: 'A', text: 'new' })).resolves.toMatchObject({
      kind: 'added',
    });
    await expect(memory.remove({ file: 'MEMORY.md', section: 'A', match: 'bad' })).resolves.toMatchObject({
      kind: 'removed',
    });
    expect(await memory.readText('MEMORY.md')).toBe(md('# Memory', '', '## A', '- good', '- new'));
  });

  it('a result over the store size limit -> FILE_TOO_LARGE, nothing written', async () => {
    const store = createInMemoryStore({ maxDocumentBytes: 40, initialDocuments: { 'MEMORY.md': md('## A', '- a') } });
    const initial = await snapshot(store);
    await expect(
      openMemory({ store }).add({ file: 'MEMORY.md', section: 'A', text: 'x'.repeat(50) }),
    ).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(await snapshot(store)).toEqual(initial);
  });

  it('readText refuses path traversal', async () => {
    const memory = openMemory({ store: createInMemoryStore() });
    await expect(memory.readText('../secret')).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });

  it('openMemory refuses an unknown mode or retry count', () => {
    const store = createInMemoryStore();
    expect(() => openMemory({ store, mode: 'write-only' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => openMemory({ store, maxConflictRetries: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});

describe('openMemory: modes', () => {
  const seeded = () => createInMemoryStore({ initialDocuments: { 'MEMORY.md': md('# Memory', '', '## A', '- a') } });

  it('read-only refuses every write with READ_ONLY before touching the store, but reads', async () => {
    const store = wrapStore(seeded(), {
      overrides: { get: async () => expect.unreachable('get must not be called') },
    });
    const memory = openMemory({ store, mode: 'read-only' });
    const writes = [
      () => memory.add({ file: 'MEMORY.md', section: 'A', text: 'x' }),
      () => memory.replace({ file: 'MEMORY.md', section: 'A', match: 'a', with: 'x' }),
      () => memory.remove({ file: 'MEMORY.md', section: 'A', match: 'a' }),
      () => memory.dailyAppend({ text: 'x' }),
      () => memory.init(),
    ];
    for (const write of writes) {
      await expect(write()).rejects.toMatchObject({ code: 'READ_ONLY', message: /read-only/ });
    }
    expect(store.writes).toHaveLength(0);
    const reader = openMemory({ store: seeded(), mode: 'read-only' });
    expect(await reader.readText('MEMORY.md')).toContain('- a');
  });

  it('disabled refuses every call, reads included, with MEMORY_DISABLED', async () => {
    const store = seeded();
    const memory = openMemory({ store, mode: 'disabled' });
    const calls = [
      () => memory.add({ file: 'MEMORY.md', section: 'A', text: 'x' }),
      () => memory.replace({ file: 'MEMORY.md', section: 'A', match: 'a', with: 'x' }),
      () => memory.remove({ file: 'MEMORY.md', section: 'A', match: 'a' }),
      () => memory.dailyAppend({ text: 'x' }),
      () => memory.init(),
      () => memory.search('a'),
      () => memory.readText('MEMORY.md'),
    ];
    for (const call of calls) {
      await expect(call()).rejects.toMatchObject({ code: 'MEMORY_DISABLED', message: /disabled/ });
    }
    expect(await readStoreText(store, 'MEMORY.md')).toBe(md('# Memory', '', '## A', '- a'));
  });
});

describe('openMemory: init and reads', () => {
  it('seeds only missing files and never modifies existing ones', async () => {
    const store = createInMemoryStore({ initialDocuments: { 'MEMORY.md': md('# Memory', '', '## A', '- keep') } });
    const memory = openMemory({ store });
    expect(await memory.init()).toEqual({
      created: ['daily/.gitkeep', 'github/.gitkeep', 'PROJECT.md', 'README.md'],
      existing: ['MEMORY.md'],
    });
    expect(await readStoreText(store, 'MEMORY.md')).toBe(md('# Memory', '', '## A', '- keep'));
    expect(await readStoreText(store, 'PROJECT.md')).toBe('');
    expect(await readStoreText(store, 'README.md')).toBe(MEMORY_README);
    expect(MEMORY_README).toMatch(/repomem search/);
    expect(MEMORY_README).toMatch(/repomem update/);
    const before = await snapshot(store);
    expect(await memory.init()).toEqual({
      created: [],
      existing: ['daily/.gitkeep', 'github/.gitkeep', 'PROJECT.md', 'MEMORY.md', 'README.md'],
    });
    expect(await snapshot(store)).toEqual(before);
  });

  it('init writes with expectedVersion null, so a file created concurrently is not overwritten', async () => {
    const inner = createInMemoryStore();
    const store = wrapStore(inner, {
      beforeWrite: async (_operations, call) => {
        if (call === 1) {
          await inner.write([{ kind: 'put', path: 'README.md', content: new TextEncoder().encode('mine\n') }]);
        }
      },
    });
    const result = await openMemory({ store }).init();
    expect(result.existing).toEqual(['README.md']);
    expect(await readStoreText(inner, 'README.md')).toBe('mine\n');
    for (const write of store.writes) {
      for (const operation of write.operations) expect(operation).toMatchObject({ expectedVersion: null });
    }
  });

  it('readText returns text without BOM, undefined when absent', async () => {
    const store = createInMemoryStore({ initialDocuments: { 'notes/a.md': '\uFEFFhello\n' } });
    const memory = openMemory({ store });
    expect(await memory.readText('./notes//a.md')).toBe('hello\n');
    expect(await memory.readText('missing.md')).toBeUndefined();
  });

  it('search uses core’s engine for a store without native search (read-only allowed)', async () => {
    const store = createInMemoryStore();
    await openMemory({ store }).add({
      file: 'MEMORY.md',
      section: 'Conventions',
      text: 'Run pnpm test before pushing',
    });
    await openMemory({ store }).add({ file: 'PROJECT.md', section: 'Goals', text: 'Ship the CLI' });
    const response = await openMemory({ store, mode: 'read-only' }).search('pnpm');
    expect(response.results.map((hit) => hit.path)).toEqual(['MEMORY.md']);
    expect(response.results[0]?.snippets[0]?.text).toContain('pnpm test');
  });

  it('search takes candidates from a store that offers them, and ranks them itself', async () => {
    const inner = createInMemoryStore({
      initialDocuments: { 'a.md': 'native search here\n', 'b.md': 'native too\n', 'c.md': 'unrelated\n' },
    });
    const asked: unknown[] = [];
    const store = wrapStore(inner, {
      overrides: {
        searchCandidates: async (query) => {
          asked.push(query);
          // Only a.md is named: core must rank what the index names, nothing else.
          return {
            status: 'candidates',
            candidates: [{ path: 'a.md', score: 1 }],
            complete: true,
            corpus: { documentCount: 3, totalLength: 6 },
          };
        },
      },
    });
    const response = await openMemory({ store, mode: 'read-only' }).search('native');
    // The stem's needle is asked too (`nativ*` holds `nativity`, an inflection `native*` misses).
    expect(asked).toEqual([
      {
        kind: 'lexical',
        terms: [
          { text: 'native', prefix: true },
          { text: 'nativ', prefix: true },
        ],
        prefix: '',
      },
    ]);
    expect(response.results.map((hit) => hit.path)).toEqual(['a.md']);
    expect(response.documentCount).toBe(3);
    expect(response.results[0]?.snippets[0]?.text).toBe('native search here');
  });

  it('search falls back to its own engine when the store answers unsupported', async () => {
    const inner = createInMemoryStore({ initialDocuments: { 'a.md': 'native search here\n' } });
    const store = wrapStore(inner, {
      overrides: { searchCandidates: async () => ({ status: 'unsupported', reason: 'test' }) },
    });
    const response = await openMemory({ store, mode: 'read-only' }).search('native');
    expect(response.results.map((hit) => hit.path)).toEqual(['a.md']);
  });
});

describe('openMemory: concurrency', () => {
  it('re-runs the operation on fresh text after a conflict (no lost update)', async () => {
    const inner = createInMemoryStore({ initialDocuments: { 'MEMORY.md': md('## A', '- a') } });
    const rival = openMemory({ store: inner });
    const store = wrapStore(inner, {
      beforeWrite: async (_operations, call) => {
        if (call === 1) await rival.add({ file: 'MEMORY.md', section: 'A', text: 'rival' });
      },
    });
    expect(await openMemory({ store }).add({ file: 'MEMORY.md', section: 'A', text: 'mine' })).toMatchObject({
      kind: 'added',
    });
    expect(store.writes).toHaveLength(2);
    expect(await readStoreText(inner, 'MEMORY.md')).toBe(md('## A', '- a', '- rival', '- mine'));
  });

  it('re-evaluates the outcome on fresh text (a rival added the same bullet: duplicate)', async () => {
    const inner = createInMemoryStore({ initialDocuments: { 'MEMORY.md': md('## A', '- a') } });
    const rival = openMemory({ store: inner });
    const store = wrapStore(inner, {
      beforeWrite: async (_operations, call) => {
        if (call === 1) await rival.add({ file: 'MEMORY.md', section: 'A', text: 'same' });
      },
    });
    expect(await openMemory({ store }).add({ file: 'MEMORY.md', section: 'A', text: 'same' })).toMatchObject({
      kind: 'duplicate',
    });
  });

  it('gives up with CONFLICT after maxConflictRetries', async () => {
    const inner = createInMemoryStore({ initialDocuments: { 'MEMORY.md': md('## A', '- a') } });
    let counter = 0;
    const store = wrapStore(inner, {
      beforeWrite: async () => {
        counter += 1;
        await inner.write([
          { kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode(md('## A', `- ${counter}`)) },
        ]);
      },
    });
    await expect(
      openMemory({ store, maxConflictRetries: 2 }).add({ file: 'MEMORY.md', section: 'A', text: 'x' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(store.writes).toHaveLength(3);
  });

  it('two facades racing 50 adds each: all 100 bullets present', async () => {
    const store = createInMemoryStore();
    const left = openMemory({ store });
    const right = openMemory({ store });
    const adds = (memory: ReturnType<typeof openMemory>, name: string) =>
      Promise.all(
        Array.from({ length: 50 }, (_, index) =>
          memory.add({ file: 'MEMORY.md', section: 'Race', text: `${name} bullet ${index}` }),
        ),
      );
    const [fromLeft, fromRight] = await Promise.all([adds(left, 'left'), adds(right, 'right')]);
    const outcomes = [...fromLeft, ...fromRight];
    expect(outcomes.every((outcome) => outcome.kind === 'added')).toBe(true);
    const text = (await readStoreText(store, 'MEMORY.md')) ?? '';
    const bullets = text.split('\n').filter((line) => line.startsWith('- '));
    expect(bullets).toHaveLength(100);
    expect(new Set(bullets).size).toBe(100);
    expect(text.startsWith('# Memory\n\n## Race\n')).toBe(true);
  });
});
