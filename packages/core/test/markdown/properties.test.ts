// Why: the invariants of the bullet operations over generated memory files (LF and CRLF, nested
// bullets, paragraphs, sub-headers, blank lines): other sections are never touched, files end in
// exactly one newline, add is idempotent, and add-then-remove of a new bullet restores the file.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LineEnding, parseMarkdown, sectionKey } from '../../src/markdown/document.js';
import { addBullet, type BulletEditResult, removeBullet, replaceBullet } from '../../src/markdown/operations.js';

const NAMES = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Open Questions'];
const WORDS = ['a', 'b', 'c', 'ab', 'ba', 'cab', 'A', 'B', 'bc'];

const textArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(' '));

const bodyLineArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc
      .tuple(fc.constantFrom('', '  '), fc.constantFrom('-', '*', '+'), textArb)
      .map(([indent, marker, text]) => `${indent}${marker} ${text}`),
  },
  { weight: 2, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: textArb.map((text) => `Note ${text}`) },
  { weight: 1, arbitrary: fc.constantFrom('### Sub', '# Appendix') },
);

interface GeneratedFile {
  readonly text: string;
  readonly names: readonly string[];
  readonly eol: LineEnding;
}

const fileArb: fc.Arbitrary<GeneratedFile> = fc
  .record({
    names: fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }),
    bodies: fc.array(fc.array(bodyLineArb, { maxLength: 6 }), { minLength: 4, maxLength: 4 }),
    title: fc.boolean(),
    eol: fc.constantFrom<LineEnding>('\n', '\r\n'),
    casing: fc.boolean(),
  })
  .map(({ names, bodies, title, eol, casing }) => {
    const lines: string[] = title ? ['# Memory', ''] : [];
    names.forEach((name, index) => {
      lines.push(`## ${casing ? name.toUpperCase() : name}`, ...(bodies[index] ?? []));
    });
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
    return { text: lines.map((line) => line + eol).join(''), names, eol };
  });

type Operation =
  | { kind: 'add'; section: string; text: string }
  | { kind: 'replace'; section: string; match: string; with: string }
  | { kind: 'remove'; section: string; match: string };

const sectionArb = fc.constantFrom(...NAMES, 'missing', ' alpha ');
const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), section: sectionArb, text: textArb }),
  fc.record({ kind: fc.constant('replace' as const), section: sectionArb, match: textArb, with: textArb }),
  fc.record({ kind: fc.constant('remove' as const), section: sectionArb, match: textArb }),
);

function apply(source: string, operation: Operation): BulletEditResult {
  switch (operation.kind) {
    case 'add':
      return addBullet(source, { file: 'MEMORY.md', section: operation.section, text: operation.text });
    case 'replace':
      return replaceBullet(source, { file: 'MEMORY.md', ...operation });
    case 'remove':
      return removeBullet(source, { file: 'MEMORY.md', ...operation });
  }
}

/** Lines of `text` with the section keyed `key` cut out (header and body). */
function outsideSection(text: string, key: string): string[] {
  const doc = parseMarkdown(text);
  const section = doc.sections.find((entry) => entry.key === key);
  if (section === undefined) return doc.lines;
  return [...doc.lines.slice(0, section.headerIndex), ...doc.lines.slice(section.bodyEnd)];
}

const RUNS = { numRuns: 400 };

describe('bullet operation properties', () => {
  it('never touch another section', () => {
    fc.assert(
      fc.property(fileArb, operationArb, (file, operation) => {
        const result = apply(file.text, operation);
        if (result.text === undefined) return;
        const key = sectionKey(operation.section);
        expect(outsideSection(result.text, key)).toEqual(outsideSection(file.text, key));
      }),
      RUNS,
    );
  });

  it('leave files ending in exactly one newline, in the file’s own line ending', () => {
    fc.assert(
      fc.property(fileArb, operationArb, (file, operation) => {
        const result = apply(file.text, operation);
        if (result.text === undefined) return;
        expect(result.text.endsWith(file.eol)).toBe(true);
        expect(result.text.endsWith(file.eol + file.eol)).toBe(false);
        if (file.eol === '\r\n') expect(result.text.replace(/\r\n/g, '')).not.toContain('\n');
        else expect(result.text).not.toContain('\r');
      }),
      RUNS,
    );
  });

  it('add is idempotent', () => {
    fc.assert(
      fc.property(fileArb, sectionArb, textArb, (file, section, text) => {
        const first = addBullet(file.text, { file: 'MEMORY.md', section, text });
        const afterFirst = first.text ?? file.text;
        const second = addBullet(afterFirst, { file: 'MEMORY.md', section, text });
        if (first.outcome.kind === 'added' || first.outcome.kind === 'duplicate') {
          expect(second.outcome.kind).toBe('duplicate');
          expect(second.text).toBeUndefined();
        } else {
          expect(second.outcome).toEqual(first.outcome);
        }
      }),
      RUNS,
    );
  });

  it('a section name that ends like a closing sequence (`# #`) is found again after seeding', () => {
    const first = addBullet(undefined, { file: 'PROJECT.md', section: '# #', text: 'a' });
    expect(first.outcome.kind).toBe('added');
    expect(addBullet(first.text, { file: 'PROJECT.md', section: '# #', text: 'a' }).outcome.kind).toBe('duplicate');
  });

  it('any valid section name seeds a file that the next add finds', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }).filter((name) => name.trim() !== '' && !/[\r\n]/.test(name)),
        textArb,
        (section, text) => {
          const first = addBullet(undefined, { file: 'PROJECT.md', section, text });
          expect(first.outcome.kind).toBe('added');
          expect(addBullet(first.text, { file: 'PROJECT.md', section, text }).outcome.kind).toBe('duplicate');
        },
      ),
      RUNS,
    );
  });

  it('add then remove of a new bullet restores a file that already had the section', () => {
    fc.assert(
      fc.property(fileArb, fc.nat(), textArb, (file, pick, words) => {
        const section = file.names[pick % file.names.length]!;
        const text = `zz ${words} zz`;
        const added = addBullet(file.text, { file: 'MEMORY.md', section, text });
        expect(added.outcome.kind).toBe('added');
        const removed = removeBullet(added.text, { file: 'MEMORY.md', section, match: text });
        expect(removed.outcome.kind).toBe('removed');
        expect(removed.text).toBe(file.text);
      }),
      RUNS,
    );
  });
});
