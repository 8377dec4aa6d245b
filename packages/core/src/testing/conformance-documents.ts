// Why: the read/write basics every store must get exactly right: the declared contract shape,
// document round trips, byte exactness (CRLF, emoji, non-UTF-8), path validation, and listing.

import type { MemoryStore } from '../store/contract.js';
import { STORE_SPECIFICATION_VERSION } from '../store/contract.js';
import { type ConformanceHarness, text, utf8 } from './conformance-support.js';

/** Paths every store must refuse with `INVALID_PATH`, with the reason. */
export const INVALID_DOCUMENT_PATHS: ReadonlyArray<readonly [string, string]> = [
  ['', 'empty'],
  ['.', 'names no file'],
  ['../outside.md', 'parent traversal'],
  ['notes/../../outside.md', 'nested parent traversal'],
  ['/etc/passwd', 'absolute'],
  ['C:/memory.md', 'drive letter'],
  ['notes\\a.md', 'backslash'],
  ['notes/a\0.md', 'NUL byte'],
  ['.git/config', 'VCS internals'],
  ['notes/.git/HEAD', 'nested VCS internals'],
  ['node_modules/x.js', 'dependency directory'],
];

/** Register the contract-shape, documents, bytes, paths and list groups. */
export function registerDocumentGroups<S extends MemoryStore>(h: ConformanceHarness<S>): void {
  const { describe, expect } = h.options.runner;

  describe('contract shape', () => {
    h.test('declares the specification version and a name', async () => {
      const store = h.store();
      expect(store.specificationVersion).toBe(STORE_SPECIFICATION_VERSION);
      expect(typeof store.name).toBe('string');
      expect(store.name.length).toBeGreaterThan(0);
    });
    h.test('declares every capability with the right type', async () => {
      const { capabilities } = h.store();
      for (const flag of ['binarySafe', 'atomicDocument', 'atomicBatch', 'readYourWrites'] as const) {
        expect(typeof capabilities[flag], `capabilities.${flag}`).toBe('boolean');
      }
      expect(['native', 'emulated'], 'capabilities.compareAndSwap').toContain(capabilities.compareAndSwap);
      expect(Number.isInteger(capabilities.maxDocumentBytes), 'maxDocumentBytes is an integer').toBe(true);
      expect(capabilities.maxDocumentBytes).toBeGreaterThan(0);
    });
    h.test('optional APIs are functions or absent, and the state API is present', async () => {
      const store = h.store();
      for (const member of ['readAll', 'searchCandidates'] as const) {
        expect(['undefined', 'function'], member).toContain(typeof store[member]);
      }
      if (store.history !== undefined) {
        expect(typeof store.history.log, 'history.log').toBe('function');
        expect(typeof store.history.readAt, 'history.readAt').toBe('function');
      }
      for (const member of ['get', 'put', 'delete', 'list'] as const) {
        expect(typeof store.state?.[member], `state.${member}`).toBe('function');
      }
    });
    h.test('a fresh store is empty', async () => {
      expect(await h.store().list()).toEqual([]);
      await h.expectPaths([]);
    });
  });

  describe('documents', () => {
    h.test('get of a missing document is undefined', async () => {
      expect(await h.store().get('MEMORY.md')).toBeUndefined();
      expect(await h.store().get('daily/2026-05-01.md')).toBeUndefined();
    });
    h.test('put then get returns the bytes, size and the version the write reported', async () => {
      const content = utf8('# Memory\n\n## Conventions\n- use pnpm\n');
      const result = await h.seed({ 'MEMORY.md': content });
      const document = await h.expectStored('MEMORY.md', content);
      expect(typeof document.version).toBe('string');
      expect(document.version.length).toBeGreaterThan(0);
      expect(result.versions).toEqual({ 'MEMORY.md': document.version });
    });
    h.test('list reports the same version and size as get', async () => {
      await h.seed({ 'MEMORY.md': '- a\n', 'daily/2026-05-01.md': '# Daily\n', 'PROJECT.md': '' });
      const entries = await h.store().list();
      expect(entries.map((entry) => entry.path)).toEqual(['MEMORY.md', 'PROJECT.md', 'daily/2026-05-01.md']);
      for (const entry of entries) {
        const document = await h.store().get(entry.path);
        expect(document?.version, `version of ${entry.path}`).toBe(entry.version);
        expect(document?.size, `size of ${entry.path}`).toBe(entry.size);
      }
    });
    h.test('an unconditional put replaces the content', async () => {
      await h.seed({ 'MEMORY.md': 'old\n' });
      await h.seed({ 'MEMORY.md': 'new content\n' });
      await h.expectStored('MEMORY.md', utf8('new content\n'));
    });
    h.test('delete removes the document and reports a null version', async () => {
      await h.seed({ 'MEMORY.md': 'x\n', 'PROJECT.md': 'y\n' });
      const result = await h.store().write([{ kind: 'delete', path: 'MEMORY.md' }]);
      expect(result.status).toBe('committed');
      if (result.status === 'committed') expect(result.versions).toEqual({ 'MEMORY.md': null });
      await h.expectAbsent('MEMORY.md');
      await h.expectPaths(['PROJECT.md']);
    });
    h.test('deleting a missing document commits and changes nothing', async () => {
      const result = await h.store().write([{ kind: 'delete', path: 'nothing-here.md' }]);
      expect(result.status).toBe('committed');
      await h.expectPaths([]);
    });
    h.test('a batch of puts and deletes is applied as a whole', async () => {
      await h.seed({ 'a.md': 'a\n', 'b.md': 'b\n' });
      const result = await h.store().write([
        { kind: 'put', path: 'a.md', content: utf8('a2\n') },
        { kind: 'delete', path: 'b.md' },
        { kind: 'put', path: 'notes/c.md', content: utf8('c\n') },
      ]);
      expect(result.status).toBe('committed');
      if (result.status === 'committed') {
        expect(Object.keys(result.versions).sort()).toEqual(['a.md', 'b.md', 'notes/c.md']);
        expect(result.versions['b.md']).toBe(null);
      }
      await h.expectStored('a.md', utf8('a2\n'));
      await h.expectStored('notes/c.md', utf8('c\n'));
      await h.expectPaths(['a.md', 'notes/c.md']);
    });
    h.test('callers cannot change stored bytes through their buffers', async () => {
      const input = utf8('original\n');
      await h.store().write([{ kind: 'put', path: 'MEMORY.md', content: input }]);
      input.fill(0x21);
      const first = await h.store().get('MEMORY.md');
      first?.content.fill(0x21);
      await h.expectStored('MEMORY.md', utf8('original\n'));
    });
  });

  describe('bytes', () => {
    const samples: ReadonlyArray<readonly [string, string]> = [
      ['CRLF line endings', '# Memory\r\n\r\n## Notes\r\n- one\r\n- two\r\n'],
      ['mixed line endings and no final newline', 'a\nb\r\nc\rd'],
      ['a UTF-8 byte order mark', '\uFEFF# Memory\n'],
      ['emoji, CJK and combining marks', '- 🚀 déploiement 記憶 e\u0301 👩‍💻\n'],
      ['trailing whitespace and blank lines', '- x   \n\n\n\t\n'],
    ];
    for (const [label, value] of samples) {
      h.test(`round-trips ${label} exactly`, async () => {
        await h.seed({ 'MEMORY.md': value });
        const document = await h.expectStored('MEMORY.md', utf8(value));
        expect(text(document.content)).toBe(value);
      });
    }
    h.test('round-trips an empty document', async () => {
      await h.seed({ 'PROJECT.md': new Uint8Array(0) });
      await h.expectStored('PROJECT.md', new Uint8Array(0));
      expect((await h.store().list()).map((entry) => entry.size)).toEqual([0]);
    });
    h.testIf(
      (store) => store.capabilities.binarySafe,
      'store is not binarySafe',
      'round-trips bytes that are not UTF-8',
      async () => {
        const bytes = new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0x0d, 0x0a, 0xed, 0xa0, 0x80, 0x00]);
        await h.seed({ 'blob.bin': bytes });
        await h.expectStored('blob.bin', bytes);
        const all = new Uint8Array(256).map((_, index) => index);
        await h.seed({ 'all-bytes.bin': all });
        await h.expectStored('all-bytes.bin', all);
      },
    );
  });

  describe('paths', () => {
    h.test('paths are normalised to POSIX form relative to the root', async () => {
      const result = await h.store().write([{ kind: 'put', path: './notes//a.md', content: utf8('n\n') }]);
      expect(result.status).toBe('committed');
      if (result.status === 'committed') expect(Object.keys(result.versions)).toEqual(['notes/a.md']);
      await h.expectStored('notes/a.md', utf8('n\n'));
      expect((await h.store().get('./notes/a.md'))?.path).toBe('notes/a.md');
      await h.expectPaths(['notes/a.md']);
    });
    for (const [path, reason] of INVALID_DOCUMENT_PATHS) {
      h.test(`rejects ${JSON.stringify(path)} (${reason}) with INVALID_PATH and writes nothing`, async () => {
        await h.seed({ 'MEMORY.md': 'keep\n' });
        const revision = await h.store().revision();
        await h.expectError(() => h.store().write([{ kind: 'put', path, content: utf8('x\n') }]), 'INVALID_PATH');
        await h.expectError(() => h.store().write([{ kind: 'delete', path }]), 'INVALID_PATH');
        await h.expectError(() => h.store().get(path), 'INVALID_PATH');
        await h.expectPaths(['MEMORY.md']);
        await h.expectStored('MEMORY.md', utf8('keep\n'));
        expect(await h.store().revision()).toBe(revision);
      });
    }
    h.test('a batch with one invalid path writes none of its documents', async () => {
      await h.expectError(
        () =>
          h.store().write([
            { kind: 'put', path: 'ok.md', content: utf8('ok\n') },
            { kind: 'put', path: '../escape.md', content: utf8('x\n') },
          ]),
        'INVALID_PATH',
      );
      await h.expectPaths([]);
    });
    h.test('list rejects an invalid prefix with INVALID_PATH', async () => {
      await h.expectError(() => h.store().list('../'), 'INVALID_PATH');
      await h.expectError(() => h.store().list('.git/'), 'INVALID_PATH');
    });
  });

  describe('list', () => {
    const tree = [
      'B.md',
      'MEMORY.md',
      'a-b.md',
      'a.md',
      'a/b.md',
      'daily.md',
      'daily/2026-05-01.md',
      'daily/2026-05-02.md',
    ];
    const seedTree = () => h.seed(Object.fromEntries(tree.map((path) => [path, `${path}\n`])));
    h.test('is sorted by path', async () => {
      await h.seed(Object.fromEntries([...tree].reverse().map((path) => [path, `${path}\n`])));
      expect((await h.store().list()).map((entry) => entry.path)).toEqual([...tree].sort());
    });
    h.test('filters by a directory prefix', async () => {
      await seedTree();
      expect((await h.store().list('daily/')).map((entry) => entry.path)).toEqual([
        'daily/2026-05-01.md',
        'daily/2026-05-02.md',
      ]);
      expect((await h.store().list('./daily/')).map((entry) => entry.path)).toEqual([
        'daily/2026-05-01.md',
        'daily/2026-05-02.md',
      ]);
    });
    h.test('filters by a plain path prefix', async () => {
      await seedTree();
      expect((await h.store().list('daily')).map((entry) => entry.path)).toEqual([
        'daily.md',
        'daily/2026-05-01.md',
        'daily/2026-05-02.md',
      ]);
      expect((await h.store().list('daily/2026-05-0')).map((entry) => entry.path)).toEqual([
        'daily/2026-05-01.md',
        'daily/2026-05-02.md',
      ]);
    });
    h.test('returns nothing for a prefix that matches nothing, and everything for an empty prefix', async () => {
      await seedTree();
      expect(await h.store().list('github/')).toEqual([]);
      expect((await h.store().list('')).length).toBe(tree.length);
    });
    h.test('lists deeply nested documents', async () => {
      const path = 'github/owner/repo/issue-1.json';
      await h.seed({ [path]: '{"number":1}\n' });
      expect((await h.store().list('github/')).map((entry) => entry.path)).toEqual([path]);
      await h.expectStored(path, utf8('{"number":1}\n'));
    });
  });

  describe('readAll (optional)', () => {
    const hasReadAll = (store: S) => typeof store.readAll === 'function';
    const reason = 'the store has no readAll()';
    /** What `list(prefix)` then `get()` of each entry gives, as plain objects. */
    const listThenGet = async (prefix?: string) => {
      const store = h.store();
      const documents = [];
      for (const entry of await store.list(prefix)) {
        const document = await store.get(entry.path);
        if (document !== undefined) documents.push({ ...document, content: text(document.content) });
      }
      return documents;
    };
    const readAll = async (options?: Parameters<NonNullable<MemoryStore['readAll']>>[0]) =>
      ((await h.store().readAll?.(options)) ?? []).map((document) => ({
        ...document,
        content: text(document.content),
      }));
    const tree = {
      'MEMORY.md': '# Memory\n- one\n',
      'daily.md': 'daily\n',
      'daily/2026-05-01.md': '- first\n',
      'daily/2026-05-02.md': '- second, longer\n',
      'github/owner/repo/issue-1.json': '{"number":1}\n',
      'empty.md': '',
    };
    h.testIf(hasReadAll, reason, 'returns what list then get return, sorted by path', async () => {
      await h.seed(tree);
      expect(await readAll()).toEqual(await listThenGet());
      expect((await readAll()).map((document) => document.path)).toEqual(Object.keys(tree).sort());
    });
    h.testIf(hasReadAll, reason, 'filters by prefix like list', async () => {
      await h.seed(tree);
      for (const prefix of ['daily/', './daily/', 'daily', 'daily/2026-05-0', 'github/', 'nothing/', '']) {
        expect(await readAll({ prefix })).toEqual(await listThenGet(prefix));
      }
    });
    h.testIf(hasReadAll, reason, 'asks accept with each path and size and returns only what it takes', async () => {
      await h.seed(tree);
      const asked: Array<[string, number]> = [];
      const taken = await readAll({
        accept: (path, size) => {
          asked.push([path, size]);
          return path.endsWith('.md') && size > 0;
        },
      });
      const listed = await h.store().list();
      expect(asked.sort(([a], [b]) => (a < b ? -1 : 1))).toEqual(listed.map((entry) => [entry.path, entry.size]));
      expect(taken).toEqual(
        (await listThenGet()).filter((document) => document.path.endsWith('.md') && document.size > 0),
      );
    });
    h.testIf(hasReadAll, reason, 'sees the latest writes', async () => {
      await h.seed(tree);
      await h.store().write([
        { kind: 'put', path: 'MEMORY.md', content: utf8('# Memory\n- changed\n') },
        { kind: 'delete', path: 'daily.md' },
      ]);
      expect(await readAll()).toEqual(await listThenGet());
    });
    h.testIf(hasReadAll, reason, 'rejects an invalid prefix with INVALID_PATH', async () => {
      await h.expectError(async () => h.store().readAll?.({ prefix: '../' }), 'INVALID_PATH');
    });
  });

  describe('getMany (optional)', () => {
    const hasGetMany = (store: S) => typeof store.getMany === 'function';
    const reason = 'the store has no getMany()';
    const plain = (document: Awaited<ReturnType<MemoryStore['get']>>) =>
      document === undefined ? undefined : { ...document, content: text(document.content) };
    const tree = { 'MEMORY.md': '# Memory\n- one\n', 'daily/2026-05-01.md': '- first\n', 'empty.md': '' };
    h.testIf(hasGetMany, reason, 'answers what get answers for each path, in the order asked', async () => {
      await h.seed(tree);
      const paths = ['empty.md', 'missing.md', 'MEMORY.md', 'daily/2026-05-01.md', 'MEMORY.md'];
      const many = (await h.store().getMany?.(paths)) ?? [];
      expect(many.map(plain)).toEqual(await Promise.all(paths.map(async (path) => plain(await h.store().get(path)))));
      expect(await h.store().getMany?.([])).toEqual([]);
    });
    h.testIf(hasGetMany, reason, 'sees the latest writes', async () => {
      await h.seed(tree);
      await h.store().write([
        { kind: 'put', path: 'MEMORY.md', content: utf8('# Memory\n- changed\n') },
        { kind: 'delete', path: 'empty.md' },
      ]);
      const many = (await h.store().getMany?.(['MEMORY.md', 'empty.md'])) ?? [];
      expect(many.map(plain)).toEqual([plain(await h.store().get('MEMORY.md')), undefined]);
    });
    h.testIf(hasGetMany, reason, 'rejects an invalid path with INVALID_PATH', async () => {
      await h.expectError(async () => h.store().getMany?.(['MEMORY.md', '../escape.md']), 'INVALID_PATH');
    });
  });
}
