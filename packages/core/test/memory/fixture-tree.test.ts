// Why: the bullet semantics on the real memory files a Sepo agent wrote (MEMORY.md, PROJECT.md,
// daily logs): every section round-trips an add/remove byte for byte, dedup recognises existing
// bullets, and the facade edits a copy of the tree without touching other files. Runs whenever
// the fixture tree is present and reports itself skipped otherwise.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../src/markdown/document.js';
import { addBullet, dailyAppendBullet, removeBullet } from '../../src/markdown/operations.js';
import { openMemory } from '../../src/memory/facade.js';
import { createInMemoryStore } from '../../src/store/memory-store.js';
import { readStoreText, snapshot } from './helpers.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const fixtureTree = process.env.REPOMEM_FIXTURE_TREE ?? path.resolve(repoRoot, '../shared/fixtures/sepo-memory-tree');

const fixtureNote = existsSync(fixtureTree) ? 'present' : `skipped: needs ${fixtureTree}`;

describe.skipIf(!existsSync(fixtureTree))(`bullet operations on the Sepo fixture tree (${fixtureNote})`, () => {
  // Copy the files into memory: the fixture itself is never written.
  const read = (relative: string): string => readFileSync(path.join(fixtureTree, relative), 'utf8');
  const editable = ['MEMORY.md', 'PROJECT.md'] as const;

  it('add then remove restores every section of MEMORY.md and PROJECT.md', () => {
    for (const file of editable) {
      const text = read(file);
      for (const section of parseMarkdown(text).sections) {
        const added = addBullet(text, { file, section: section.name, text: 'zz fixture probe zz' });
        expect(added.outcome.kind).toBe('added');
        const removed = removeBullet(added.text, { file, section: section.name, match: 'ZZ FIXTURE probe' });
        expect(removed.outcome.kind).toBe('removed');
        expect(removed.text).toBe(text);
      }
    }
  });

  it('recognises every existing bullet as a duplicate', () => {
    for (const file of editable) {
      const text = read(file);
      const doc = parseMarkdown(text);
      for (const section of doc.sections) {
        for (const line of doc.lines.slice(section.bodyStart, section.bodyEnd)) {
          if (!line.startsWith('- ')) continue;
          expect(addBullet(text, { file, section: section.name, text: line }).outcome.kind).toBe('duplicate');
        }
      }
    }
  });

  it('daily logs: append lands after the last Activity bullet', () => {
    const daily = readdirSync(path.join(fixtureTree, 'daily')).filter((name) => name.endsWith('.md'));
    expect(daily.length).toBeGreaterThan(0);
    for (const name of daily) {
      const text = read(`daily/${name}`);
      const result = dailyAppendBullet(text, { date: name.slice(0, 10), text: 'fixture probe' });
      if (result.outcome.kind === 'duplicate_section') continue;
      expect(result.outcome.kind).toBe('added');
      const lines = parseMarkdown(result.text ?? '').lines;
      const probe = lines.indexOf('- fixture probe');
      expect(lines[probe - 1]?.trimStart().startsWith('- ') || lines[probe - 1]?.startsWith('## Activity')).toBe(true);
    }
  });

  it('the facade edits a copy of the tree and touches only the target file', async () => {
    const store = createInMemoryStore({
      initialDocuments: { 'MEMORY.md': read('MEMORY.md'), 'PROJECT.md': read('PROJECT.md') },
    });
    const before = await snapshot(store);
    const memory = openMemory({ store });
    expect(
      await memory.add({ file: 'PROJECT.md', section: 'open questions', text: 'Is repomem a drop-in?' }),
    ).toMatchObject({ kind: 'added' });
    const after = await snapshot(store);
    expect(after.versions['MEMORY.md']).toBe(before.versions['MEMORY.md']);
    expect(await readStoreText(store, 'PROJECT.md')).toContain('- Is repomem a drop-in?\n');
    expect(await memory.init()).toMatchObject({ existing: ['PROJECT.md', 'MEMORY.md'] });
    expect(await readStoreText(store, 'MEMORY.md')).toBe(read('MEMORY.md'));
  });
});
