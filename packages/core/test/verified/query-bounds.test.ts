// Why: a verified-memory text search is bounded like document search (1024 characters, 64
// distinct terms) before any backend builds a query from it, so a pathological query is a clear
// INVALID_ARGUMENT on every record backend, never an engine error or seconds of work.
import { describe, expect, it } from 'vitest';
import { openFixture, thrown } from './support.js';

describe('verified search: query bounds', () => {
  it('refuses too many distinct terms and too long a query with INVALID_ARGUMENT naming the limit', async () => {
    const { service } = openFixture();
    const many = Array.from({ length: 200 }, (_, index) => `t${index}`).join(' ');
    const terms = await thrown(() => service.search('acme/app', many));
    expect(terms.code).toBe('INVALID_ARGUMENT');
    expect(terms.message).toContain('at most 64');
    const long = await thrown(() => service.search('acme/app', 'x'.repeat(2000)));
    expect(long.code).toBe('INVALID_ARGUMENT');
    expect(long.message).toContain('at most 1024');
    expect(await service.search('acme/app', 'ordinary words')).toEqual([]);
  });
});
