// Why: pins the wording, streams and exit codes of the verified-memory outcomes that the end-to-end
// tests cannot reach cheaply (a citation source that is down), as pure functions.
import type { Citation, CitationCheck, VerifiedMemory } from '@repomem/core';
import { describe, expect, it } from 'vitest';
import { describeRecall, describeStats, describeVerifyOne } from '../src/format/memories-output.js';

const citation: Citation = { path: 'src/constants.ts', line_start: 2, line_end: 3 };
const memory: VerifiedMemory = {
  id: '0f8fad5b-d9cb-469f-a165-70867728950e',
  repo: 'acme/app',
  subject: 'API version',
  fact: 'Bump it in constants.ts',
  scope: null,
  citations: [citation],
  reason: null,
  created_by: null,
  created_at: '2026-01-01T00:00:00.000Z',
  refreshed_at: '2026-01-01T00:00:00.000Z',
  expires_at: '2026-01-29T00:00:00.000Z',
  status: 'active',
  superseded_by: null,
  supersedes: null,
  invalid_reason: null,
  verification_count: 0,
  revision: 1,
};
const down: CitationCheck = { kind: 'unavailable', citation, message: 'GitHub is unreachable' };

describe('verified-memory outcomes', () => {
  it('a recall with unverified memories exits 2 but still lists everything on stdout', () => {
    const report = describeRecall('acme/app', 'github', {
      memories: [],
      invalidated: [],
      unverified: [{ memory, checks: [down] }],
    });
    expect(report.exitCode).toBe(2);
    expect(report.stream).toBe('stdout');
    expect(report.text).toBe(
      [
        'verified 0, invalidated 0, unverified 1 in acme/app (source github)',
        `unverified ${memory.id}: API version`,
        '  src/constants.ts:2-3: unavailable: GitHub is unreachable',
      ].join('\n'),
    );
    expect(report.json).toMatchObject({ ok: false, outcome: 'recalled', unverified: [{ memory: { id: memory.id } }] });
  });

  it('verify --id that could not read the source changes nothing and exits 2 on stderr', () => {
    const report = describeVerifyOne('acme/app', 'github', { kind: 'unverified', memory, checks: [down] });
    expect(report).toMatchObject({ exitCode: 2, stream: 'stderr' });
    expect(report.text).toBe(
      `could not verify ${memory.id} against github (unchanged)\n  src/constants.ts:2-3: unavailable: GitHub is unreachable`,
    );
  });

  it('stats print counts and a rounded success rate', () => {
    const events = {
      created: 3,
      retrieved: 0,
      verified_valid: 2,
      verified_invalid: 1,
      corrected: 0,
      refreshed: 2,
      superseded: 0,
      applied: 0,
    };
    const report = describeStats({
      repo: 'acme/app',
      byStatus: { active: 2, invalid: 1, superseded: 0 },
      expired: 0,
      events,
      verificationSuccessRate: 2 / 3,
    });
    expect(report.text).toBe(
      [
        'memories in acme/app: active 2, invalid 1, superseded 0, expired 0',
        'events: created 3, retrieved 0, verified_valid 2, verified_invalid 1, corrected 0, refreshed 2, superseded 0, applied 0',
        'verification success rate: 66.7%',
      ].join('\n'),
    );
  });
});
