// Why: the hardening classes of issue 11 that every store must hold, as one suite each store
// package runs next to its conformance suite: paths git refuses, verified-memory records kept out
// of document search, bounded queries, and the bullet text rules through the memory facade
// (control characters, the bullet size limit, a NUL byte that must not wedge a file, code blocks
// that are not structure), credentials refused on every write, paths too long for a file system. `afterWrite` lets a store add its own check after every test that
// wrote (the git store runs `git fsck --strict`).
import { openMemory } from '../memory/facade.js';
import { MAX_QUERY_CHARS, MAX_QUERY_TERMS } from '../search/query-limits.js';
import { searchStore } from '../search/search-store.js';
import type { MemoryStore } from '../store/contract.js';
import { createDocumentRecordBackend } from '../verified/document-backend.js';
import { createHarness, utf8 } from './conformance-support.js';
import type { StoreConformanceOptions } from './conformance-types.js';
import { registerSecretGroups } from './hardening-secrets.js';
import { conformanceId, conformanceRecord } from './record-backend-conformance-fixtures.js';

/** Path names git refuses in a tree (`git fsck --strict`), each with the name it stands for. */
export const GIT_REFUSED_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['.git', '.git'],
  ['.GIT', '.git'],
  ['.Git', '.git'],
  ['.git.', '.git'],
  ['.git ', '.git'],
  ['.git. . .', '.git'],
  ['.git::$INDEX_ALLOCATION', '.git'],
  ['git~1', '.git'],
  ['GIT~1', '.git'],
  ['.g\u200cit', '.git'],
  ['\u200e.GI\u200dT', '.git'],
  ['.git\ufeff', '.git'],
  ['.gitmodules', '.gitmodules'],
  ['.GitModules', '.gitmodules'],
  ['.gitmodules .', '.gitmodules'],
  ['gitmod~1', '.gitmodules'],
  ['gi7eba~1', '.gitmodules'],
  ['.gitm\u200codules', '.gitmodules'],
  ['.gitattributes', '.gitattributes'],
  ['gitatt~2', '.gitattributes'],
  ['gi7d29~1', '.gitattributes'],
];

/** Names close to those but accepted by git (and so by every store). */
export const GIT_ACCEPTED_NAMES: readonly string[] = [
  '.github',
  '.gitignore',
  '.gitx',
  'git~2',
  '.git-notes',
  'x.git',
  '.gitmodulesx',
  'gitmod~5',
  '.g\u0131t',
];

/** Options of {@link runStoreHardening}: the conformance options plus an optional check after writes. */
export interface StoreHardeningOptions<S extends MemoryStore = MemoryStore> extends StoreConformanceOptions<S> {
  /** Called at the end of every test that wrote to the store (e.g. `git fsck --strict`). */
  afterWrite?(store: S): Promise<void>;
}

const md = (...lines: string[]): string => `${lines.join('\n')}\n`;

/** Register the hardening groups for a store (one fresh store per test, as in the conformance suite). */
export function runStoreHardening<S extends MemoryStore>(options: StoreHardeningOptions<S>): void {
  const { describe, expect } = options.runner;
  describe(options.name ?? 'store hardening', () => {
    const h = createHarness(options);
    const wrote = async (): Promise<void> => {
      if (options.afterWrite !== undefined) await options.afterWrite(h.store());
    };

    registerSecretGroups(h, wrote);

    h.test('refuses every path git refuses, at any depth, writing nothing', async () => {
      const store = h.store();
      for (const [name] of GIT_REFUSED_NAMES) {
        for (const path of [`${name}/config`, `notes/${name}/hooks/post-checkout`, `notes/${name}`]) {
          await h.expectError(() => store.write([{ kind: 'put', path, content: utf8('x') }]), 'INVALID_PATH');
        }
      }
      expect(await store.list()).toEqual([]);
      await h.seed(Object.fromEntries(GIT_ACCEPTED_NAMES.map((name) => [`notes/${name}/a.md`, `# ${name}\n`])));
      expect((await store.list()).length).toBe(GIT_ACCEPTED_NAMES.length);
      await wrote();
    });

    h.test('refuses a case or Unicode-normalisation twin of an existing path, naming it', async () => {
      const store = h.store();
      await h.seed({ 'MEMORY.md': '# m\n', 'notes/caf\u00e9.md': 'x\n' });
      const twins: ReadonlyArray<readonly [string, string]> = [
        ['memory.md', 'MEMORY.md'],
        ['Memory.MD', 'MEMORY.md'],
        ['notes/cafe\u0301.md', 'notes/caf\u00e9.md'],
        ['notes/CAF\u00c9.md', 'notes/caf\u00e9.md'],
        ['NOTES/other.md', 'notes/'],
        ['Notes/caf\u00e9.md', 'notes/'],
      ];
      for (const [path, existing] of twins) {
        let message = '';
        try {
          await store.write([{ kind: 'put', path, content: utf8('twin\n') }]);
        } catch (error) {
          message = `${(error as { code?: string }).code}: ${(error as Error).message}`;
        }
        expect(message, path).toContain('INVALID_PATH');
        expect(message, path).toContain(JSON.stringify(existing));
      }
      await h.expectError(
        () =>
          store.write([
            { kind: 'put', path: 'a.md', content: utf8('1') },
            { kind: 'put', path: 'A.md', content: utf8('2') },
          ]),
        'INVALID_PATH',
      );
      expect((await store.list()).map((entry) => entry.path).sort()).toEqual(['MEMORY.md', 'notes/caf\u00e9.md']);
      // Writing the existing name again is an update, and a rename by case in one batch is allowed.
      await h.seed({ 'MEMORY.md': '# m2\n' });
      const renamed = await store.write([
        { kind: 'delete', path: 'MEMORY.md' },
        { kind: 'put', path: 'memory.md', content: utf8('# m3\n') },
      ]);
      expect(renamed.status).toBe('committed');
      expect((await store.list()).map((entry) => entry.path).sort()).toEqual(['memory.md', 'notes/caf\u00e9.md']);
      await wrote();
    });

    h.test('verified-memory records are never returned by document search', async () => {
      const store = h.store();
      const backend = createDocumentRecordBackend(store);
      const fact = 'zebrafish tanks are cleaned weekly';
      await backend.apply(
        [
          { record: conformanceRecord({ id: conformanceId(1), repo: 'acme/a', fact }), expectedRevision: null },
          { record: conformanceRecord({ id: conformanceId(2), repo: 'acme/b', fact }), expectedRevision: null },
          {
            record: conformanceRecord({
              id: conformanceId(3),
              repo: 'acme/a',
              fact,
              status: 'invalid',
              invalid_reason: 'stale',
            }),
            expectedRevision: null,
          },
        ],
        [],
      );
      await h.seed({ 'MEMORY.md': md('# Memory', '', '## Durable', '- zebrafish live in tank 3') });
      const response = await searchStore(store, 'zebrafish', { limit: 50 });
      expect(response.results.map((hit) => hit.path)).toEqual(['MEMORY.md']);
      const own = await backend.search({ repo: 'acme/a', text: 'zebrafish' });
      expect(own.map((record) => record.id).sort()).toEqual([conformanceId(1), conformanceId(3)]);
      await backend.close();
      await wrote();
    });

    h.test('a pathological query is INVALID_ARGUMENT, never a regular-expression error', async () => {
      const store = h.store();
      await h.seed({ 'MEMORY.md': md('# Memory', '', '## Durable', '- term1 term2') });
      const many = Array.from({ length: 100_000 }, (_, index) => `term${index}`).join(' ');
      await h.expectError(() => searchStore(store, many), 'INVALID_ARGUMENT');
      await h.expectError(() => searchStore(store, 'a'.repeat(MAX_QUERY_CHARS + 1)), 'INVALID_ARGUMENT');
      await h.expectError(() => searchStore(store, '(('.repeat(MAX_QUERY_CHARS)), 'INVALID_ARGUMENT');
      const atLimit = Array.from({ length: MAX_QUERY_TERMS }, (_, index) => `term${index}`).join(' ');
      expect((await searchStore(store, atLimit)).results.map((hit) => hit.path)).toEqual(['MEMORY.md']);
      await wrote();
    });

    h.test('bullet text: control characters and bullets over 4 KiB are refused, nothing written', async () => {
      const store = h.store();
      const memory = openMemory({ store });
      await memory.add({ file: 'MEMORY.md', section: 'Durable', text: 'first' });
      const before = (await store.get('MEMORY.md'))?.version;
      for (const text of ['nul \u0000 byte', 'ansi \u001b[31mred', 'bell \u0007', 'csi \u009b2J', 'x'.repeat(5000)]) {
        await h.expectError(() => memory.add({ file: 'MEMORY.md', section: 'Durable', text }), 'INVALID_ARGUMENT');
        await h.expectError(() => memory.dailyAppend({ text, date: '2026-05-01' }), 'INVALID_ARGUMENT');
        await h.expectError(
          () => memory.replace({ file: 'MEMORY.md', section: 'Durable', match: 'first', with: text }),
          'INVALID_ARGUMENT',
        );
      }
      expect((await store.get('MEMORY.md'))?.version).toBe(before);
      expect(await store.get('daily/2026-05-01.md')).toBeUndefined();
      await wrote();
    });

    h.test('a memory file holding a NUL byte stays editable: its bullet can be removed', async () => {
      const store = h.store();
      await h.seed({ 'MEMORY.md': md('# Memory', '', '## Durable', '- broken \u0000 bullet', '- kept') });
      const memory = openMemory({ store });
      expect((await memory.remove({ file: 'MEMORY.md', section: 'Durable', match: 'broken' })).kind).toBe('removed');
      expect(await memory.readText('MEMORY.md')).toBe(md('# Memory', '', '## Durable', '- kept'));
      await wrote();
    });

    h.test('headers and bullets inside code blocks are not structure', async () => {
      const store = h.store();
      await h.seed({ 'MEMORY.md': md('# Memory', '', '## Notes', '```md', '## Notes', '- fenced', '```', '- real') });
      const memory = openMemory({ store });
      expect((await memory.add({ file: 'MEMORY.md', section: 'Notes', text: 'added' })).kind).toBe('added');
      expect((await memory.remove({ file: 'MEMORY.md', section: 'Notes', match: 'fenced' })).kind).toBe('no_match');
      expect(await memory.readText('MEMORY.md')).toBe(
        md('# Memory', '', '## Notes', '```md', '## Notes', '- fenced', '```', '- real', '- added'),
      );
      await wrote();
    });
  });
}
