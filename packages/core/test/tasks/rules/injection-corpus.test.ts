// Why: the injection screen's contract on its own older corpus (the review-rule corpus proper is
// test/rules/corpus): no hostile line may become an active rule, and the share of real coding
// rules refused outright (false rejects) stays small; rules held pending wait for a maintainer.
import { describe, expect, it } from 'vitest';
import { parseRuleOutput, type RuleOutputContext } from '../../../src/index.js';
import { CODING_RULES } from './coding-rule-corpus.js';
import { HELD_OUT_CODING_RULES, HELD_OUT_HOSTILE_LINES } from './held-out-corpus.js';
import { HOSTILE_LINES } from './hostile-corpus.js';

const CONTEXT: RuleOutputContext = {
  repo: 'acme/app',
  pr: 7,
  reviewer: 'alice',
  association: 'OWNER',
  extracted_at: '2026-01-02T03:04:05.000Z',
  prompt_version: 'sha256:test',
};

function asRuleLine(text: string): string {
  return `RULE: ${text} [Source: PR #7, Reviewer: @alice, Extracted: 2026-01-02]`;
}

function percent(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(1)}%`;
}

describe('injection corpus', () => {
  it('holds at least 150 hostile lines and 150 coding rules', () => {
    expect(HOSTILE_LINES.length).toBeGreaterThanOrEqual(150);
    expect(CODING_RULES.length).toBeGreaterThanOrEqual(150);
  });

  it('accepts no hostile line (false-accept rate 0%)', () => {
    const accepted = HOSTILE_LINES.filter(
      (line) => parseRuleOutput(asRuleLine(line.text), CONTEXT).accepted.length > 0,
    );
    console.info(
      `false accepts: ${accepted.length}/${HOSTILE_LINES.length} (${percent(accepted.length, HOSTILE_LINES.length)})`,
    );
    expect(accepted).toEqual([]);
  });

  it('gives every hostile line at least one reason (refused, or pending with reasons)', () => {
    for (const line of HOSTILE_LINES) {
      const parsed = parseRuleOutput(asRuleLine(line.text), CONTEXT);
      const reasons = [...(parsed.rejected[0]?.rejections ?? []), ...(parsed.pending[0]?.pendingReasons ?? [])];
      expect(reasons.length, line.text).toBeGreaterThan(0);
    }
  });

  it('refuses at most 5% of real coding rules outright (false-reject rate; pending ones wait for a maintainer)', () => {
    const refused = CODING_RULES.flatMap((rule) => {
      const parsed = parseRuleOutput(asRuleLine(rule), CONTEXT);
      return parsed.rejected.length === 0
        ? []
        : [{ rule, reasons: parsed.rejected[0]?.rejections.map((r) => r.reason) }];
    });
    console.info(
      `false rejects: ${refused.length}/${CODING_RULES.length} (${percent(refused.length, CODING_RULES.length)})\n${refused
        .map((entry) => `  ${entry.reasons?.join(',')}: ${entry.rule}`)
        .join('\n')}`,
    );
    expect(refused.length / CODING_RULES.length).toBeLessThanOrEqual(0.05);
  });
});

describe('held-out corpus', () => {
  it('accepts no hostile line and reports its rates', () => {
    const accepted = HELD_OUT_HOSTILE_LINES.filter(
      (line) => parseRuleOutput(asRuleLine(line.text), CONTEXT).accepted.length > 0,
    );
    const refused = HELD_OUT_CODING_RULES.filter(
      (rule) => parseRuleOutput(asRuleLine(rule), CONTEXT).rejected.length > 0,
    );
    const pending = HELD_OUT_CODING_RULES.filter(
      (rule) => parseRuleOutput(asRuleLine(rule), CONTEXT).pending.length > 0,
    );
    console.info(
      `held-out false accepts: ${accepted.length}/${HELD_OUT_HOSTILE_LINES.length}; coding rules refused: ${refused.length}/${HELD_OUT_CODING_RULES.length}, pending: ${pending.length}\n${[
        ...accepted.map((line) => `  accepted: ${line.text}`),
        ...refused.map((rule) => `  refused: ${rule}`),
        ...pending.map((rule) => `  pending: ${rule}`),
      ].join('\n')}`,
    );
    expect(refused).toEqual([]);
    expect(accepted).toEqual([]);
  });
});
