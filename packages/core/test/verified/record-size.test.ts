// Why: a record store (AgentCore: 16,000-character records) keeps one record per memory only if
// every memory the schema accepts serialises within that limit; this builds the worst case the
// schema allows (every text field at its limit, every character escaped in JSON) and checks it.
import { describe, expect, it } from 'vitest';
import {
  MAX_CITATION_PATH_CHARS,
  MAX_CITATIONS,
  MAX_FACT_CHARS,
  MAX_NOTE_CHARS,
  MAX_SERIALIZED_MEMORY_CHARS,
  MAX_SUBJECT_CHARS,
  VERIFIED_COMMIT_DIGITS,
  VerifiedMemorySchema,
} from '../../src/verified/record.js';

/** `n` characters that each serialise to two (a quote escapes as `\"`). */
const escaped = (n: number) => '"'.repeat(n);

describe('verified memory size', () => {
  it(`the largest memory the schema accepts serialises within ${MAX_SERIALIZED_MEMORY_CHARS} characters`, () => {
    const id = '0123abcd-0123-4567-89ab-0123456789ab';
    const time = '2026-11-24T12:34:56.789+00:00';
    const record = VerifiedMemorySchema.parse({
      id,
      repo: `${'o'.repeat(39)}/${'r'.repeat(100)}`,
      subject: escaped(MAX_SUBJECT_CHARS),
      fact: escaped(MAX_FACT_CHARS),
      scope: escaped(MAX_NOTE_CHARS),
      citations: Array.from({ length: MAX_CITATIONS }, () => ({
        path: `${'"'.repeat(MAX_CITATION_PATH_CHARS - 2)}/a`,
        line_start: 2 ** 31,
        line_end: 2 ** 31,
        sha: 'f'.repeat(64),
        snippet_hash: `sha256:${'e'.repeat(64)}`,
        verified_commit: 'd'.repeat(VERIFIED_COMMIT_DIGITS),
      })),
      reason: escaped(MAX_NOTE_CHARS),
      created_by: escaped(MAX_NOTE_CHARS),
      created_at: time,
      refreshed_at: time,
      expires_at: time,
      status: 'superseded',
      superseded_by: id,
      supersedes: id,
      invalid_reason: escaped(MAX_NOTE_CHARS),
      verification_count: Number.MAX_SAFE_INTEGER,
      revision: Number.MAX_SAFE_INTEGER,
    });
    expect(JSON.stringify(record).length).toBeLessThanOrEqual(MAX_SERIALIZED_MEMORY_CHARS);
  });

  it('refuses control characters and unpaired surrogates in text and over-long citation paths', () => {
    const base = {
      repo: 'acme/app',
      subject: 's',
      fact: 'f',
      citations: [{ path: 'a.ts', line_start: 1, line_end: 1 }],
    };
    expect(VerifiedMemorySchema.shape.fact.safeParse('a\u0000b').success).toBe(false);
    expect(VerifiedMemorySchema.shape.fact.safeParse('a\ud800b').success).toBe(false);
    expect(VerifiedMemorySchema.shape.fact.safeParse('tab\tand\nnewline').success).toBe(true);
    const long = { ...base.citations[0], path: 'a'.repeat(MAX_CITATION_PATH_CHARS + 1) };
    expect(VerifiedMemorySchema.shape.citations.safeParse([long]).success).toBe(false);
  });
});
