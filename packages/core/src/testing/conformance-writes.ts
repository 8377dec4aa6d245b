// Why: the guarantees that make concurrent agents safe: versions track content, expected versions
// turn a lost update into a reported conflict, a refused batch writes nothing, the revision moves
// exactly when content moves, concurrent read-modify-write loops all land, limits and close().
import type { MemoryStore, WriteConflict, WriteResult } from '../store/contract.js';
import { type ConformanceHarness, text, utf8 } from './conformance-support.js';

const byPath = (a: WriteConflict, b: WriteConflict): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Largest document the suite will allocate to probe `maxDocumentBytes` (64 MiB). */
const PROBE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Read-modify-write with compare-and-swap until it commits: the loop every caller of the
 * contract runs. Returns the number of attempts.
 */
async function casUpdate(
  store: MemoryStore,
  path: string,
  change: (old: string | undefined) => string,
): Promise<number> {
  for (let attempt = 1; attempt <= 1000; attempt += 1) {
    const current = await store.get(path);
    const next = change(text(current?.content));
    const result = await store.write([
      { kind: 'put', path, content: utf8(next), expectedVersion: current?.version ?? null },
    ]);
    if (result.status === 'committed') return attempt;
  }
  throw new Error(`conformance: compare-and-swap on ${path} never committed`);
}

/** Register the versions, expected-version, batch, revision, concurrency, limit and close groups. */
export function registerWriteGroups<S extends MemoryStore>(h: ConformanceHarness<S>): void {
  const { describe, expect } = h.options.runner;

  const expectConflict = (result: WriteResult, conflicts: WriteConflict[]): void => {
    expect(result.status).toBe('conflict');
    if (result.status === 'conflict') expect([...result.conflicts].sort(byPath)).toEqual([...conflicts].sort(byPath));
  };

  describe('versions', () => {
    h.test('change when the content changes', async () => {
      const first = await h.seed({ 'MEMORY.md': '- a\n' });
      const second = await h.seed({ 'MEMORY.md': '- a\n- b\n' });
      expect(second.versions['MEMORY.md']).not.toBe(first.versions['MEMORY.md']);
      expect((await h.store().get('MEMORY.md'))?.version).toBe(second.versions['MEMORY.md']);
    });
    h.test('differ between same-size contents', async () => {
      const first = await h.seed({ 'MEMORY.md': '- aaaa\n' });
      const second = await h.seed({ 'MEMORY.md': '- bbbb\n' });
      expect(second.versions['MEMORY.md']).not.toBe(first.versions['MEMORY.md']);
    });
  });

  describe('expected versions', () => {
    h.test('a matching version commits', async () => {
      const seeded = await h.seed({ 'MEMORY.md': 'v1\n' });
      const result = await h
        .store()
        .write([
          { kind: 'put', path: 'MEMORY.md', content: utf8('v2\n'), expectedVersion: seeded.versions['MEMORY.md'] },
        ]);
      expect(result.status).toBe('committed');
      await h.expectStored('MEMORY.md', utf8('v2\n'));
    });
    h.test('null commits when the document does not exist', async () => {
      const result = await h
        .store()
        .write([{ kind: 'put', path: 'MEMORY.md', content: utf8('new\n'), expectedVersion: null }]);
      expect(result.status).toBe('committed');
      await h.expectStored('MEMORY.md', utf8('new\n'));
    });
    h.test('a mismatching version is a conflict and writes nothing', async () => {
      const seeded = await h.seed({ 'MEMORY.md': 'v1\n' });
      const actual = seeded.versions['MEMORY.md'] ?? null;
      const result = await h
        .store()
        .write([{ kind: 'put', path: 'MEMORY.md', content: utf8('v2\n'), expectedVersion: 'not-a-real-version' }]);
      expectConflict(result, [{ path: 'MEMORY.md', expected: 'not-a-real-version', actual }]);
      await h.expectStored('MEMORY.md', utf8('v1\n'));
    });
    h.test('null on an existing document is a conflict', async () => {
      const seeded = await h.seed({ 'MEMORY.md': 'v1\n' });
      const result = await h
        .store()
        .write([{ kind: 'put', path: 'MEMORY.md', content: utf8('v2\n'), expectedVersion: null }]);
      expectConflict(result, [{ path: 'MEMORY.md', expected: null, actual: seeded.versions['MEMORY.md'] ?? null }]);
      await h.expectStored('MEMORY.md', utf8('v1\n'));
    });
    h.test('a version on a missing document is a conflict with actual null', async () => {
      const seeded = await h.seed({ 'MEMORY.md': 'v1\n' });
      await h.store().write([{ kind: 'delete', path: 'MEMORY.md' }]);
      const version = seeded.versions['MEMORY.md'] ?? 'x';
      const result = await h
        .store()
        .write([{ kind: 'put', path: 'MEMORY.md', content: utf8('v2\n'), expectedVersion: version }]);
      expectConflict(result, [{ path: 'MEMORY.md', expected: version, actual: null }]);
      await h.expectAbsent('MEMORY.md');
    });
    h.test('a version made stale by another write is a conflict naming the current version', async () => {
      const first = await h.seed({ 'MEMORY.md': 'v1\n' });
      const stale = first.versions['MEMORY.md'] ?? null;
      const second = await h
        .store()
        .write([{ kind: 'put', path: 'MEMORY.md', content: utf8('v2 by someone else\n'), expectedVersion: stale }]);
      expect(second.status).toBe('committed');
      const current = second.status === 'committed' ? (second.versions['MEMORY.md'] ?? null) : null;
      const result = await h
        .store()
        .write([{ kind: 'put', path: 'MEMORY.md', content: utf8('v2 by me\n'), expectedVersion: stale }]);
      expectConflict(result, [{ path: 'MEMORY.md', expected: stale, actual: current }]);
      await h.expectStored('MEMORY.md', utf8('v2 by someone else\n'));
    });
    h.test('a delete with a stale version is a conflict and keeps the document', async () => {
      const first = await h.seed({ 'MEMORY.md': 'v1\n' });
      const second = await h.seed({ 'MEMORY.md': 'v2\n' });
      const result = await h
        .store()
        .write([{ kind: 'delete', path: 'MEMORY.md', expectedVersion: first.versions['MEMORY.md'] }]);
      expectConflict(result, [
        {
          path: 'MEMORY.md',
          expected: first.versions['MEMORY.md'] ?? null,
          actual: second.versions['MEMORY.md'] ?? null,
        },
      ]);
      await h.expectStored('MEMORY.md', utf8('v2\n'));
    });
    h.test('a delete with the current version commits', async () => {
      const seeded = await h.seed({ 'MEMORY.md': 'v1\n' });
      const result = await h
        .store()
        .write([{ kind: 'delete', path: 'MEMORY.md', expectedVersion: seeded.versions['MEMORY.md'] }]);
      expect(result.status).toBe('committed');
      await h.expectAbsent('MEMORY.md');
    });
    h.test('one failed precondition applies nothing from the batch and lists every conflict', async () => {
      const seeded = await h.seed({ 'a.md': 'a\n', 'b.md': 'b\n', 'c.md': 'c\n' });
      const result = await h.store().write([
        { kind: 'put', path: 'a.md', content: utf8('a2\n'), expectedVersion: seeded.versions['a.md'] },
        { kind: 'delete', path: 'b.md', expectedVersion: seeded.versions['b.md'] },
        { kind: 'put', path: 'new.md', content: utf8('new\n'), expectedVersion: null },
        { kind: 'put', path: 'c.md', content: utf8('c2\n'), expectedVersion: 'stale' },
        { kind: 'put', path: 'd.md', content: utf8('d\n'), expectedVersion: 'stale-too' },
      ]);
      expectConflict(result, [
        { path: 'c.md', expected: 'stale', actual: seeded.versions['c.md'] ?? null },
        { path: 'd.md', expected: 'stale-too', actual: null },
      ]);
      await h.expectStored('a.md', utf8('a\n'));
      await h.expectStored('b.md', utf8('b\n'));
      await h.expectStored('c.md', utf8('c\n'));
      await h.expectPaths(['a.md', 'b.md', 'c.md']);
    });
  });

  describe('batch validation', () => {
    h.test('the same path twice (after normalisation) is INVALID_ARGUMENT and writes nothing', async () => {
      await h.expectError(
        () =>
          h.store().write([
            { kind: 'put', path: 'MEMORY.md', content: utf8('a\n') },
            { kind: 'put', path: './MEMORY.md', content: utf8('b\n') },
          ]),
        'INVALID_ARGUMENT',
      );
      await h.expectPaths([]);
    });
    h.test('content that is not bytes is INVALID_ARGUMENT and writes nothing', async () => {
      await h.expectError(
        () =>
          h.store().write([
            { kind: 'put', path: 'ok.md', content: utf8('ok\n') },
            { kind: 'put', path: 'MEMORY.md', content: 'text' as unknown as Uint8Array },
          ]),
        'INVALID_ARGUMENT',
      );
      await h.expectPaths([]);
    });
    h.test('an unknown operation kind is INVALID_ARGUMENT', async () => {
      await h.expectError(
        () => h.store().write([{ kind: 'append', path: 'MEMORY.md' } as unknown as { kind: 'delete'; path: string }]),
        'INVALID_ARGUMENT',
      );
      await h.expectPaths([]);
    });
  });

  describe('revision', () => {
    h.test('is stable while nothing changes', async () => {
      await h.seed({ 'MEMORY.md': 'x\n' });
      const revision = await h.store().revision();
      expect(typeof revision).toBe('string');
      expect(await h.store().revision()).toBe(revision);
      await h.store().list();
      await h.store().get('MEMORY.md');
      expect(await h.store().revision()).toBe(revision);
    });
    h.test('changes on every write that changes content, and the write reports it', async () => {
      const seen = new Set<string>([await h.store().revision()]);
      const writes = [
        () => h.seed({ 'MEMORY.md': 'one\n' }),
        () => h.seed({ 'MEMORY.md': 'two\n' }),
        () => h.seed({ 'daily/2026-05-01.md': 'day\n' }),
        () => h.store().write([{ kind: 'delete', path: 'MEMORY.md' }]),
      ];
      for (const write of writes) {
        const result = await write();
        expect(result.status).toBe('committed');
        const revision = await h.store().revision();
        expect(seen.has(revision), 'revision is new').toBe(false);
        seen.add(revision);
      }
    });
    h.test('does not change on a conflict or a refused batch', async () => {
      await h.seed({ 'MEMORY.md': 'x\n' });
      const revision = await h.store().revision();
      const conflict = await h
        .store()
        .write([{ kind: 'put', path: 'MEMORY.md', content: utf8('y\n'), expectedVersion: null }]);
      expect(conflict.status).toBe('conflict');
      await h.expectError(() => h.store().write([{ kind: 'put', path: '../x', content: utf8('y\n') }]), 'INVALID_PATH');
      expect(await h.store().revision()).toBe(revision);
    });
  });

  describe('concurrency within one process', () => {
    h.test('20 concurrent compare-and-swap increments of one document all land', async () => {
      const workers = 20;
      await Promise.all(
        Array.from({ length: workers }, () =>
          casUpdate(h.store(), 'counter.txt', (old) => `${Number(old ?? '0') + 1}`),
        ),
      );
      await h.expectStored('counter.txt', utf8(String(workers)));
    });
    h.test('20 concurrent appends of distinct lines all land', async () => {
      const lines = Array.from({ length: 20 }, (_, index) => `- line ${index}`);
      await Promise.all(lines.map((line) => casUpdate(h.store(), 'MEMORY.md', (old) => `${old ?? ''}${line}\n`)));
      const stored = text((await h.store().get('MEMORY.md'))?.content) ?? '';
      expect(stored.split('\n').filter(Boolean).sort()).toEqual([...lines].sort());
    });
    h.test('of two concurrent creators expecting absence exactly one commits', async () => {
      const results = await Promise.all(
        ['first\n', 'second\n'].map((value) =>
          h.store().write([{ kind: 'put', path: 'MEMORY.md', content: utf8(value), expectedVersion: null }]),
        ),
      );
      expect(results.map((result) => result.status).sort()).toEqual(['committed', 'conflict']);
      const winner = results[0]?.status === 'committed' ? 'first\n' : 'second\n';
      await h.expectStored('MEMORY.md', utf8(winner));
    });
    h.test('concurrent batches over the same documents in opposite order all complete', async () => {
      const batches = Array.from({ length: 6 }, (_, index) => {
        const paths = index % 2 === 0 ? ['a.md', 'b.md'] : ['b.md', 'a.md'];
        return h.store().write(paths.map((path) => ({ kind: 'put' as const, path, content: utf8(`${index}\n`) })));
      });
      const results = await Promise.all(batches);
      expect(results.every((result) => result.status === 'committed')).toBe(true);
      const a = text((await h.store().get('a.md'))?.content);
      const b = text((await h.store().get('b.md'))?.content);
      expect(a, 'both documents come from the same (last) batch').toBe(b);
    });
  });

  describe('limits', () => {
    const probeable = (store: MemoryStore) => store.capabilities.maxDocumentBytes < PROBE_LIMIT_BYTES;
    h.testIf(
      probeable,
      'maxDocumentBytes too large to probe',
      'a document above maxDocumentBytes is FILE_TOO_LARGE and writes nothing',
      async () => {
        const limit = h.store().capabilities.maxDocumentBytes;
        await h.seed({ 'MEMORY.md': 'keep\n' });
        const revision = await h.store().revision();
        await h.expectError(
          () =>
            h.store().write([
              { kind: 'put', path: 'small.md', content: utf8('small\n') },
              { kind: 'put', path: 'huge.bin', content: new Uint8Array(limit + 1).fill(0x61) },
            ]),
          'FILE_TOO_LARGE',
        );
        await h.expectPaths(['MEMORY.md']);
        expect(await h.store().revision()).toBe(revision);
      },
    );
    h.testIf(
      probeable,
      'maxDocumentBytes too large to probe',
      'a document of exactly maxDocumentBytes is accepted',
      async () => {
        const limit = h.store().capabilities.maxDocumentBytes;
        const content = new Uint8Array(limit).fill(0x62);
        await h.seed({ 'big.txt': content });
        await h.expectStored('big.txt', content);
      },
    );
  });

  describe('close', () => {
    h.test('every call after close() rejects with STORE_CLOSED', async () => {
      const store = h.store();
      await h.seed({ 'MEMORY.md': 'x\n' });
      await store.close();
      await h.expectError(() => store.get('MEMORY.md'), 'STORE_CLOSED');
      await h.expectError(() => store.list(), 'STORE_CLOSED');
      await h.expectError(() => store.revision(), 'STORE_CLOSED');
      if (store.readAll !== undefined) await h.expectError(async () => store.readAll?.(), 'STORE_CLOSED');
      await h.expectError(() => store.write([{ kind: 'put', path: 'a.md', content: utf8('a\n') }]), 'STORE_CLOSED');
    });
    h.test('close() may be called twice', async () => {
      await h.store().close();
      await h.store().close();
    });
  });
}
