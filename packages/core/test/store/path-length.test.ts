// Why: a name over 255 bytes fails on a file system with a raw ENAMETOOLONG; every store refuses it
// up front with INVALID_PATH, so documents always fit a directory store or a git checkout.
import { describe, expect, it } from 'vitest';
import { createInMemoryStore, MAX_DOCUMENT_PATH_BYTES, MAX_PATH_SEGMENT_BYTES } from '../../src/index.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('document path length', () => {
  it('refuses a name over 255 bytes or a path over 1024 bytes with INVALID_PATH; the limits themselves are accepted', async () => {
    const store = createInMemoryStore();
    const longName = `${'n'.repeat(MAX_PATH_SEGMENT_BYTES + 1 - 3)}.md`;
    await expect(store.write([{ kind: 'put', path: longName, content: bytes('- a\n') }])).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
    // Multi-byte names count in bytes: 128 two-byte letters are 256 bytes.
    await expect(store.write([{ kind: 'put', path: 'é'.repeat(128), content: bytes('- a\n') }])).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
    const deep = Array.from({ length: 5 }, () => 'd'.repeat(250)).join('/');
    expect(deep.length).toBeGreaterThan(MAX_DOCUMENT_PATH_BYTES);
    await expect(store.write([{ kind: 'put', path: deep, content: bytes('- a\n') }])).rejects.toMatchObject({
      code: 'INVALID_PATH',
    });
    const fits = `${'n'.repeat(MAX_PATH_SEGMENT_BYTES - 3)}.md`;
    expect((await store.write([{ kind: 'put', path: fits, content: bytes('- a\n') }])).status).toBe('committed');
  });
});
