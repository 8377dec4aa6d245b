// Why: CommonMark code is not structure: a header or bullet inside a fenced code block (``` or ~~~,
// info strings, longer fences) or an indented code block must never be found as a section, matched,
// replaced, removed, or receive a new bullet. Examples pin the fence rules; properties check that
// no operation changes a code block and that code never creates or duplicates a section.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeLineMask } from '../../src/markdown/code-blocks.js';
import { parseMarkdown } from '../../src/markdown/document.js';
import { addBullet, removeBullet, replaceBullet } from '../../src/markdown/operations.js';

const md = (...lines: string[]): string => `${lines.join('\n')}\n`;

describe('code blocks are not structure (examples)', () => {
  it('marks fenced blocks, with info strings and longer fences, and their fence lines', () => {
    const lines = ['## A', '```ts', '## B', '- x', '```', '~~~~ sh', '~~~', '- y', '~~~~', '- z'];
    expect(codeLineMask(lines)).toEqual([false, true, true, true, true, true, true, true, true, false]);
  });

  it('an unclosed fence runs to the end; a shorter or different fence does not close it', () => {
    expect(codeLineMask(['````', '```', '~~~~', '## B'])).toEqual([true, true, true, true]);
  });

  it('a backtick fence whose info string holds a backtick is inline code, not a fence', () => {
    expect(codeLineMask(['``` a`b', '## B'])).toEqual([false, false]);
  });

  it('a fence indented 4 spaces outside a list is indented code, not a fence', () => {
    expect(codeLineMask(['', '    ```', '## B'])).toEqual([false, true, false]);
  });

  it('indented code starts after a blank line or a header, never inside a paragraph or a list', () => {
    expect(codeLineMask(['## A', '    - code', '', '    ## code'])).toEqual([false, true, true, true]);
    expect(codeLineMask(['text', '    - continuation'])).toEqual([false, false]);
    expect(codeLineMask(['- a', '    - nested', '', '    - still the list'])).toEqual([false, false, false, false]);
  });

  it('add --section goes to the real section, not to a header inside a code block', () => {
    const source = md('# Memory', '', '```', '## Foo', '```', '', '## Foo', '- a');
    const result = addBullet(source, { file: 'MEMORY.md', section: 'Foo', text: 'b' });
    expect(result.outcome.kind).toBe('added');
    expect(result.text).toBe(md('# Memory', '', '```', '## Foo', '```', '', '## Foo', '- a', '- b'));
  });

  it('a fenced copy of a real header does not make the section a duplicate', () => {
    const source = md('## Notes', '~~~markdown', '## Notes', '- fenced', '~~~', '- real');
    expect(parseMarkdown(source).sections.map((section) => section.name)).toEqual(['Notes']);
    const removed = removeBullet(source, { file: 'MEMORY.md', section: 'Notes', match: 'real' });
    expect(removed.text).toBe(md('## Notes', '~~~markdown', '## Notes', '- fenced', '~~~'));
  });

  it('bullets in code are never matched, replaced or removed', () => {
    const source = md('## A', '- kept', '', '```', '- inside code', '```', '', '    - indented code');
    for (const match of ['inside code', 'indented code']) {
      expect(removeBullet(source, { file: 'MEMORY.md', section: 'A', match }).outcome.kind).toBe('no_match');
      expect(replaceBullet(source, { file: 'MEMORY.md', section: 'A', match, with: 'x' }).outcome.kind).toBe(
        'no_match',
      );
    }
  });

  it('a new bullet never lands inside a code block under the last bullet', () => {
    const source = md('## A', '- a', '  ```', '  - in code', '', '  ```', '- b', '```', '- c', '```');
    const result = addBullet(source, { file: 'MEMORY.md', section: 'A', text: 'new' });
    expect(result.text).toBe(
      md('## A', '- a', '  ```', '  - in code', '', '  ```', '- b', '- new', '```', '- c', '```'),
    );
  });
});

const NAMES = ['Alpha', 'Beta', 'Gamma'];
const WORDS = ['a', 'b', 'ab', 'cab'];
const textArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }).map((words) => words.join(' '));
/** Lines that would be structure outside code. */
const trapArb = fc.oneof(
  fc.constantFrom(...NAMES).map((name) => `## ${name}`),
  fc.constantFrom('# Title', '## Other', ''),
  textArb.map((text) => `- ${text}`),
);
const fencedArb = fc
  .record({
    marker: fc.constantFrom('`', '~'),
    length: fc.integer({ min: 3, max: 5 }),
    info: fc.constantFrom('', 'ts', ' markdown', 'sh title="x"'),
    body: fc.array(trapArb, { maxLength: 4 }),
  })
  .map(({ marker, length, info, body }) => [`${marker.repeat(length)}${info}`, ...body, marker.repeat(length)]);
const indentedArb = fc
  .array(
    trapArb.filter((line) => line !== ''),
    { minLength: 1, maxLength: 3 },
  )
  .map((body) => ['', ...body.map((line) => `    ${line}`), '']);
// Indented code only where it is code in CommonMark too: first in a section (after a list, an
// indented line continues the list item).
const bodyArb = fc
  .tuple(
    fc.option(indentedArb, { nil: undefined }),
    fc.array(
      fc.oneof({ weight: 3, arbitrary: textArb.map((text) => [`- ${text}`]) }, { weight: 2, arbitrary: fencedArb }),
      { maxLength: 4 },
    ),
  )
  .map(([indented, rest]) => (indented === undefined ? rest : [indented, ...rest]));
const fileArb = fc
  .record({
    names: fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }),
    bodies: fc.tuple(bodyArb, bodyArb, bodyArb),
  })
  .map(({ names, bodies }) => {
    const lines: string[] = ['# Memory', ''];
    const blocks: string[][] = [];
    names.forEach((name, index) => {
      lines.push(`## ${name}`);
      for (const block of bodies[index]!) {
        if (block.length > 1) blocks.push(block);
        lines.push(...block);
      }
      lines.push('');
    });
    return { text: md(...lines), names, blocks };
  });
const operationArb = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), section: fc.constantFrom(...NAMES), text: textArb }),
  fc.record({
    kind: fc.constant('replace' as const),
    section: fc.constantFrom(...NAMES),
    match: textArb,
    with: textArb,
  }),
  fc.record({ kind: fc.constant('remove' as const), section: fc.constantFrom(...NAMES), match: textArb }),
);

describe('code blocks are not structure (properties)', () => {
  it('sections are exactly the real headers, whatever the code blocks hold', () => {
    fc.assert(
      fc.property(fileArb, ({ text, names }) => {
        expect(parseMarkdown(text).sections.map((section) => section.name)).toEqual(names);
      }),
    );
  });

  it('no operation changes a line of a code block', () => {
    fc.assert(
      fc.property(fileArb, operationArb, ({ text, blocks }, operation) => {
        const result =
          operation.kind === 'add'
            ? addBullet(text, { file: 'MEMORY.md', ...operation })
            : operation.kind === 'replace'
              ? replaceBullet(text, { file: 'MEMORY.md', ...operation })
              : removeBullet(text, { file: 'MEMORY.md', ...operation });
        const after = result.text ?? text;
        const fencedBlocks = blocks.filter((block) => block[0] !== '');
        for (const block of fencedBlocks) expect(after).toContain(md(...block));
        for (const block of blocks.filter((entry) => entry[0] === '')) {
          expect(after).toContain(block.slice(1, -1).join('\n'));
        }
        const before = parseMarkdown(text);
        const parsed = parseMarkdown(after);
        const codeLines = (doc: typeof parsed): string[] =>
          doc.lines.filter((line, index) => doc.code[index] && line.trim() !== '');
        expect(codeLines(parsed)).toEqual(codeLines(before));
      }),
    );
  });
});
