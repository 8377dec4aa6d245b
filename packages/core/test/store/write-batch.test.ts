import { describe, expect, it } from 'vitest';
import { contentVersion, prepareWriteBatch, RepomemError } from '../../src/index.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('prepareWriteBatch options (for store authors)', () => {
  it('versions puts with sha256 by default and with versionOf when given', () => {
    const content = bytes('- a\n');
    const [byDefault] = prepareWriteBatch([{ kind: 'put', path: 'MEMORY.md', content }], 1024);
    expect(byDefault).toMatchObject({ kind: 'put', path: 'MEMORY.md', version: contentVersion(content) });
    const [custom] = prepareWriteBatch([{ kind: 'put', path: 'MEMORY.md', content }], 1024, {
      versionOf: (data) => `len:${data.byteLength}`,
    });
    expect(custom).toMatchObject({ version: 'len:4' });
  });

  it('refuses a path put both as a document and as a directory only when asked', () => {
    const batch = [
      { kind: 'put', path: 'notes', content: bytes('x') },
      { kind: 'put', path: 'notes/a.md', content: bytes('y') },
    ] as const;
    expect(prepareWriteBatch(batch, 1024)).toHaveLength(2);
    let caught: unknown;
    try {
      prepareWriteBatch(batch, 1024, { refuseDocumentDirectoryClash: true });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RepomemError);
    expect((caught as RepomemError).code).toBe('INVALID_ARGUMENT');
    expect((caught as RepomemError).message).toContain('notes is written both as a document and as the directory');
  });

  it('allows deleting a document while putting a directory of the same name', () => {
    const batch = [
      { kind: 'delete', path: 'notes' },
      { kind: 'put', path: 'notes/a.md', content: bytes('y') },
    ] as const;
    expect(prepareWriteBatch(batch, 1024, { refuseDocumentDirectoryClash: true })).toHaveLength(2);
  });
});
