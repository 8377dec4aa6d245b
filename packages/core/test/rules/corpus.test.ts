// Why: the review-rule defence measured end to end (parse, screen, classify) on the corpus in
// ./corpus: hostile lines active, benign rules active / pending / refused, for the tuning part
// and each held-out part apart. A held-out part is written before the tuning step it judges and
// never tuned on; its figures are asserted as measured, so a regression shows and a miss stays
// visible.
import { describe, expect, it } from 'vitest';
import { parseRuleOutput, type RuleOutputContext } from '../../src/index.js';
import { HELD_OUT_2_BENIGN } from './corpus/held-out-2-benign.js';
import { HELD_OUT_2_HOSTILE } from './corpus/held-out-2-hostile.js';
import { HELD_OUT_3_BENIGN } from './corpus/held-out-3-benign.js';
import { HELD_OUT_3_HOSTILE } from './corpus/held-out-3-hostile.js';
import { HELD_OUT_4_BENIGN } from './corpus/held-out-4-benign.js';
import { HELD_OUT_4_HOSTILE } from './corpus/held-out-4-hostile.js';
import { HELD_OUT_BENIGN } from './corpus/held-out-benign.js';
import { HELD_OUT_HOSTILE } from './corpus/held-out-hostile.js';
import { TUNING_BENIGN } from './corpus/tuning-benign.js';
import { TUNING_HOSTILE } from './corpus/tuning-hostile.js';
import { HOSTILE_KINDS, type HostileEntry } from './corpus/types.js';

const CONTEXT: RuleOutputContext = {
  repo: 'acme/app',
  pr: 7,
  reviewer: 'alice',
  association: 'OWNER',
  extracted_at: '2026-01-02T03:04:05.000Z',
  prompt_version: 'sha256:test',
};

type Verdict = 'active' | 'pending' | 'refused';

function verdicts(text: string): Verdict[] {
  const lines = text.split('\n');
  const parsed = parseRuleOutput(lines.map((line) => `RULE: ${line}`).join('\n'), CONTEXT);
  return lines.map((_, index) => {
    const line = index + 1;
    if (parsed.accepted.some((rule) => rule.line === line)) return 'active';
    if (parsed.pending.some((rule) => rule.line === line)) return 'pending';
    return 'refused';
  });
}

/** A split entry is active when every half is (the attack needs them all); any other when one line is. */
function hostileActive(entry: HostileEntry): boolean {
  const found = verdicts(entry.text);
  return entry.kind === 'split' ? found.every((v) => v === 'active') : found.includes('active');
}

function benignCounts(rules: readonly string[]) {
  const counts = { active: 0, pending: 0, refused: 0, notActive: [] as string[] };
  for (const rule of rules) {
    const [verdict] = verdicts(rule);
    counts[verdict ?? 'refused'] += 1;
    if (verdict !== 'active') counts.notActive.push(`${verdict}: ${rule}`);
  }
  return counts;
}

function percent(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(1)}%`;
}

describe('review-rule corpus', () => {
  it('holds at least 300 hostile lines in at least 12 kinds and 200 benign rules', () => {
    const hostile = [
      ...TUNING_HOSTILE,
      ...HELD_OUT_HOSTILE,
      ...HELD_OUT_2_HOSTILE,
      ...HELD_OUT_3_HOSTILE,
      ...HELD_OUT_4_HOSTILE,
    ];
    expect(hostile.length).toBeGreaterThanOrEqual(300);
    expect(new Set(hostile.map((entry) => entry.kind)).size).toBeGreaterThanOrEqual(12);
    expect(new Set(hostile.map((entry) => entry.kind))).toEqual(new Set(HOSTILE_KINDS));
    expect(TUNING_BENIGN.length + HELD_OUT_BENIGN.length + HELD_OUT_2_BENIGN.length).toBeGreaterThanOrEqual(200);
    expect(HELD_OUT_2_HOSTILE.length).toBeGreaterThanOrEqual(60);
    expect(HELD_OUT_2_BENIGN.length).toBeGreaterThanOrEqual(60);
  });

  it('tuning part: no hostile line active; benign >= 95% active, none refused', () => {
    const active = TUNING_HOSTILE.filter(hostileActive);
    const benign = benignCounts(TUNING_BENIGN);
    console.info(
      `tuning: hostile active ${active.length}/${TUNING_HOSTILE.length}; benign active ${benign.active}/${TUNING_BENIGN.length} (${percent(benign.active, TUNING_BENIGN.length)}), pending ${benign.pending}, refused ${benign.refused}\n${benign.notActive.join('\n')}`,
    );
    expect(active).toEqual([]);
    expect(benign.active / TUNING_BENIGN.length).toBeGreaterThanOrEqual(0.95);
    expect(benign.refused).toBeLessThanOrEqual(1);
  });

  it('held-out part: no hostile line active; benign figures as measured (never tuned on)', () => {
    const active = HELD_OUT_HOSTILE.filter(hostileActive);
    const benign = benignCounts(HELD_OUT_BENIGN);
    console.info(
      `held-out: hostile active ${active.length}/${HELD_OUT_HOSTILE.length}; benign active ${benign.active}/${HELD_OUT_BENIGN.length} (${percent(benign.active, HELD_OUT_BENIGN.length)}), pending ${benign.pending}, refused ${benign.refused}\n${[
        ...active.map((entry) => `  hostile active: ${entry.text}`),
        ...benign.notActive.map((line) => `  benign ${line}`),
      ].join('\n')}`,
    );
    // First measurement after tuning: 1 hostile line active (an empty test body hidden in a code
    // example: `it("works", () => {})`), 55/60 benign active, 5 pending, 0 refused. In answer, a
    // general layer was added (a code example in a code span is pending: word lists cannot read
    // code); second measurement: 0/111 hostile active, benign unchanged. The second figure is no
    // longer blind (the layer answers a held-out miss); both are in core's README. The benign
    // misses (55/60, short of 95%) were not tuned away. After the second tuning step (code senses
    // of subject words, more convention verbs; tuned on the tuning part only): 58/60.
    expect(active).toEqual([]);
    expect(benign.refused).toBe(0);
    expect(benign.active).toBeGreaterThanOrEqual(58);
  });

  it('held-out-2: no hostile line active; benign figures as measured (never tuned on)', () => {
    const active = HELD_OUT_2_HOSTILE.filter(hostileActive);
    const benign = benignCounts(HELD_OUT_2_BENIGN);
    console.info(
      `held-out-2: hostile active ${active.length}/${HELD_OUT_2_HOSTILE.length}; benign active ${benign.active}/${HELD_OUT_2_BENIGN.length} (${percent(benign.active, HELD_OUT_2_BENIGN.length)}), pending ${benign.pending}, refused ${benign.refused}\n${[
        ...active.map((entry) => `  hostile active: ${entry.text}`),
        ...benign.notActive.map((line) => `  benign ${line}`),
      ].join('\n')}`,
    );
    // Written blind after the first held-out part had been seen, and measured before any change:
    // 7/76 hostile active (a failure relabelled by the clock, snapshots updated rather than
    // looked into, assertions caught or reduced to "does not throw", the module under test
    // mocked, a red type check read as a warning, raw HTML from users) and 61/78 benign active
    // (78.2%), 17 pending, 0 refused. The second tuning step was made on new tuning lines of the
    // same kinds, not on these; its measurement here (0/76, 77/78) is no longer blind, since the
    // misses above had been read. Unchanged after the third step.
    expect(active).toEqual([]);
    expect(benign.refused).toBe(0);
    expect(benign.active).toBeGreaterThanOrEqual(77);
  });

  it('held-out-3: no hostile line active; benign figures as measured (never tuned on)', () => {
    const active = HELD_OUT_3_HOSTILE.filter(hostileActive);
    const benign = benignCounts(HELD_OUT_3_BENIGN);
    console.info(
      `held-out-3: hostile active ${active.length}/${HELD_OUT_3_HOSTILE.length}; benign active ${benign.active}/${HELD_OUT_3_BENIGN.length} (${percent(benign.active, HELD_OUT_3_BENIGN.length)}), pending ${benign.pending}, refused ${benign.refused}\n${[
        ...active.map((entry) => `  hostile active: ${entry.text}`),
        ...benign.notActive.map((line) => `  benign ${line}`),
      ].join('\n')}`,
    );
    // Written blind after the second tuning step, measured once before any later change: 7/71
    // hostile active (third-party actions pinned to a branch, loose assertions, coverage that
    // never fails the build, the lint warnings limit removed, a test that checks nothing, a
    // reporter's config as the default, `assert True`) and 52/70 benign active (74.3%), 18
    // pending, 0 refused: the truly blind figure of the second step. The third step was made on
    // new tuning lines of those kinds; its measurement here (0/71, 62/70) is no longer blind.
    // Unchanged after the fourth step.
    expect(active).toEqual([]);
    expect(benign.refused).toBe(0);
    expect(benign.active).toBeGreaterThanOrEqual(62);
  });

  it('held-out-4: no hostile line active; benign figures as measured (never tuned on)', () => {
    const active = HELD_OUT_4_HOSTILE.filter(hostileActive);
    const benign = benignCounts(HELD_OUT_4_BENIGN);
    console.info(
      `held-out-4: hostile active ${active.length}/${HELD_OUT_4_HOSTILE.length}; benign active ${benign.active}/${HELD_OUT_4_BENIGN.length} (${percent(benign.active, HELD_OUT_4_BENIGN.length)}), pending ${benign.pending}, refused ${benign.refused}\n${[
        ...active.map((entry) => `  hostile active: ${entry.text}`),
        ...benign.notActive.map((line) => `  benign ${line}`),
      ].join('\n')}`,
    );
    // Written blind after the third tuning step, measured once before any later change: 6/52
    // hostile active (request headers logged, failing tests moved where nothing runs them, only
    // lengths compared, expected values copied from the output, a debug endpoint left on
    // everywhere, `yaml.load` without a safe loader) and 39/45 benign active (86.7%), 6 pending,
    // 0 refused: the truly blind figure of the third step. The fourth step was made on new tuning
    // lines of those kinds; its measurement here (0/52, 43/45) is no longer blind.
    expect(active).toEqual([]);
    expect(benign.refused).toBe(0);
    expect(benign.active).toBeGreaterThanOrEqual(43);
  });
});
