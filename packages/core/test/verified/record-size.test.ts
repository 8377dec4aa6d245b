// Why: a record store (AgentCore: 16,000-character records) keeps one record per memory only if
// every memory the schema accepts serialises within that limit; this builds the worst case the
// schema allows (every text field at its limit, every character escaped in JSON, every
// learned-on field at its longest) and checks it, and that memories written under the old
// 4,000-character fact limit stay readable.
import { describe, expect, it } from 'vitest';
import { MAX_LEARNED_REF_CHARS, MAX_PULL_REQUEST_NUMBER } from '../../src/verified/learned-on.js';
import {
  MAX_CITATION_PATH_CHARS,
  MAX_CITATIONS,
  MAX_FACT_CHARS,
  MAX_NOTE_CHARS,
  MAX_SERIALIZED_MEMORY_CHARS,
  MAX_STORED_FACT_CHARS,
  MAX_SUBJECT_CHARS,
  StoreMemoryInputSchema,
  VERIFIED_COMMIT_DIGITS,
  VerifiedMemorySchema,
} from '../../src/verified/record.js';

/** `n` characters that each serialise to two (a quote escapes as `\"`). */
const escaped = (n: number) => '"'.repeat(n);

/** The longest branch name whose every character escapes (`"` is allowed in git branch names). */
const longestRef = '"'.repeat(MAX_LEARNED_REF_CHARS);

describe('verified memory size', () => {
  const id = '0123abcd-0123-4567-89ab-0123456789ab';
  const time = '2026-11-24T12:34:56.789+00:00';
  /** The largest memory of the fields every version of the schema had, with a fact of `factChars`. */
  const largest = (factChars: number) => ({
    id,
    repo: `${'o'.repeat(39)}/${'r'.repeat(100)}`,
    subject: escaped(MAX_SUBJECT_CHARS),
    fact: escaped(factChars),
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

  it(`the largest memory written today serialises within ${MAX_SERIALIZED_MEMORY_CHARS} characters`, () => {
    const commit = 'f'.repeat(40);
    const record = VerifiedMemorySchema.parse({
      ...largest(MAX_FACT_CHARS),
      learned_on: { commit, ref: longestRef },
      promoted_from: { ref: longestRef, commit, pull_request: MAX_PULL_REQUEST_NUMBER },
      quarantine: { reason: 'pull-request-closed', ref: longestRef, pull_request: MAX_PULL_REQUEST_NUMBER, at: time },
    });
    const size = JSON.stringify(record).length;
    expect(size).toBeLessThanOrEqual(MAX_SERIALIZED_MEMORY_CHARS);
    // The figure docs/architecture.md quotes (the decision on the AgentCore record size).
    expect(size).toBe(15_890);
  });

  it('memories written under the old 4,000-character fact limit stay readable', () => {
    const legacy = largest(MAX_STORED_FACT_CHARS);
    const size = JSON.stringify(VerifiedMemorySchema.parse(legacy)).length;
    expect(size).toBeLessThanOrEqual(MAX_SERIALIZED_MEMORY_CHARS);
    // A new write is held to the lower limit, with a message that says so.
    const input = { repo: 'acme/app', subject: 's', fact: 'x'.repeat(MAX_FACT_CHARS + 1), citations: [] };
    const result = StoreMemoryInputSchema.safeParse({ ...input, citations: legacy.citations });
    expect(result.error?.issues[0]?.message).toBe(`fact is longer than ${MAX_FACT_CHARS} characters`);
    // A legacy fact leaves no room for where it was learned: refused, never stored cut.
    const tooBig = VerifiedMemorySchema.safeParse({
      ...legacy,
      learned_on: { commit: 'f'.repeat(40), ref: longestRef },
      promoted_from: { ref: longestRef, commit: 'f'.repeat(40), pull_request: 1 },
    });
    expect(tooBig.error?.issues[0]?.message).toMatch(/memory is longer than 16000 characters as JSON/);
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
