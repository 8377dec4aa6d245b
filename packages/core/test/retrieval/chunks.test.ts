// Why: what one vector stands for decides what semantic search can find; these pin the units.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  chunkDocument,
  chunkGitHubJson,
  chunkHash,
  chunkMarkdown,
  chunkRecord,
  MAX_CHUNK_CHARS,
} from '../../src/retrieval/chunks.js';

describe('chunks', () => {
  it('cuts Markdown into bullets and paragraphs under their heading trail', () => {
    const text = [
      '# Project',
      'Intro paragraph.',
      '',
      '## Testing',
      '- vitest is the runner',
      '  continued on an indented line',
      '  - a sub-bullet stays with its parent',
      '- second bullet',
      '',
      'A paragraph after the list.',
      '',
      '```sh',
      '# not a heading',
      '```',
    ].join('\n');
    expect(chunkMarkdown(text).map((chunk) => chunk.text)).toEqual([
      'Project\nIntro paragraph.',
      'Project > Testing\n- vitest is the runner\n  continued on an indented line\n  - a sub-bullet stays with its parent',
      'Project > Testing\n- second bullet',
      'Project > Testing\nA paragraph after the list.',
      'Project > Testing\n```sh\n# not a heading\n```',
    ]);
  });

  it('cuts a long unit at sentence ends within the limit', () => {
    const long = Array.from({ length: 80 }, (_, index) => `Sentence number ${index} says something.`).join(' ');
    const chunks = chunkMarkdown(long);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.every((chunk) => chunk.text.length <= MAX_CHUNK_CHARS && chunk.text.endsWith('.'))).toBe(true);
  });

  it('cuts a mirrored GitHub item into its title alone, title + body, then each comment and review with the title', () => {
    const item = {
      title: 'Flaky login test',
      body: 'It fails on CI.',
      comments: [{ body: 'Fake timers leak.' }, { body: '' }],
      reviews: [{ body: 'Please add a regression test.' }],
    };
    expect(chunkGitHubJson(JSON.stringify(item))?.map((chunk) => chunk.text)).toEqual([
      'Flaky login test',
      'Flaky login test\nIt fails on CI.',
      'Flaky login test\nFake timers leak.',
      'Flaky login test\nPlease add a regression test.',
    ]);
    expect(chunkGitHubJson('{"no":"title"}')).toBeUndefined();
    expect(chunkDocument('data.json', '{"no":"title"}').map((chunk) => chunk.text)).toEqual(['{"no":"title"}']);
  });

  it('keeps a record whole and names every chunk by its content hash', () => {
    const record = chunkRecord('  Use pnpm.\n\nNever npm.  ');
    expect(record).toEqual({ text: 'Use pnpm.\n\nNever npm.', hash: chunkHash('Use pnpm.\n\nNever npm.') });
    expect(record.hash).toMatch(/^[0-9a-f]{32}$/);
  });

  it('chunks every file of the fixture tree', async () => {
    const fixture = new URL('../../../../../shared/fixtures/sepo-memory-tree/github/pull-53.json', import.meta.url);
    const text = await readFile(fixture, 'utf8').catch(() => undefined);
    if (text === undefined) return;
    const chunks = chunkDocument('github/pull-53.json', text);
    const title = (JSON.parse(text) as { title: string }).title;
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((chunk) => chunk.text.startsWith(title))).toBe(true);
  });
});
