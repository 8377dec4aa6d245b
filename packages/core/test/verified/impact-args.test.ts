// Why: the impact check needs a reader that maps lines and a revision to diff from; without
// them it must fail with a stable code before reading any memory (the mapping itself is tested on
// real git repositories in @repomem/store-git and the CLI).
import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/store/memory-store.js';
import { createDocumentRecordBackend } from '../../src/verified/document-backend.js';
import { checkMemoryImpact } from '../../src/verified/impact.js';
import { openVerifiedMemory } from '../../src/verified/service.js';
import { createMapCitationReader } from '../citations/support.js';

describe('checkMemoryImpact arguments', () => {
  const backend = () => createDocumentRecordBackend(createInMemoryStore());

  it('a reader without mapLines is UNSUPPORTED; a bad base or head is INVALID_ARGUMENT', async () => {
    const reader = createMapCitationReader({ 'a.ts': 'x\n' });
    await expect(
      checkMemoryImpact({ backend: backend(), reader, repo: 'acme/app', base: 'main' }),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED',
    });
    const mapping = { ...reader, mapLines: async () => ({ kind: 'same', file_changed: false }) as const };
    for (const base of ['', '--output=x']) {
      await expect(
        checkMemoryImpact({ backend: backend(), reader: mapping, repo: 'acme/app', base }),
      ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    await expect(
      checkMemoryImpact({ backend: backend(), reader: mapping, repo: 'acme/app', base: 'main', head: '-x' }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('the service needs a citation reader for impact', async () => {
    const service = openVerifiedMemory({ backend: backend() });
    await expect(service.impact('acme/app', { base: 'main' })).rejects.toMatchObject({ code: 'UNSUPPORTED' });
  });
});
