// Why: the hydration relevance set (bench/relevance: a fictional monorepo's memory and tasks with
// the items an expert would load) guards hydration quality without a model: the lexical recall of
// needed items at 2,000 and 600 tokens must stay above the floors below (the bench suite
// `relevance` reports the same figures, and the hybrid ones, in bench/RESULTS.md).
import { describe, expect, it } from 'vitest';
import { evaluateHydration } from '../../../../bench/relevance/evaluate-hydration.mjs';
import * as core from '../../src/index.js';

describe('hydration relevance set (lexical)', () => {
  it('loads the needed items at 2,000 and 600 tokens, tuning and held-out parts', async () => {
    const { budgets } = await evaluateHydration(core);
    const figures = Object.fromEntries(
      Object.entries(budgets).map(([budget, part]) => [budget, { tuning: part.tuning, heldOut: part.heldOut }]),
    );
    if (process.env.REPOMEM_PRINT_RELEVANCE === '1') {
      for (const [budget, part] of Object.entries(budgets)) {
        for (const task of part.perTask) {
          if (task.recall < 1)
            console.log(budget, task.id, task.recall.toFixed(2), task.missed.join(','), task.reasons.join(','));
          if (task.recall < 1 && process.env.REPOMEM_PRINT_ITEMS === task.id)
            console.log(
              task.items
                .filter((item) => item.included || item.needed)
                .map(
                  (item) =>
                    `${item.needed ? '*' : ' '}${item.key} ${item.score.toFixed(2)} ${item.tokens} ${item.reason ?? ''}`,
                )
                .join('\n'),
            );
        }
      }
      console.log(JSON.stringify(figures));
    }
    // Measured when written: 2,000 tokens 0.89 tuning / 0.90 held out; 600 tokens 0.74 / 0.76
    // (the issue measured 0.55 and 0.32 on its own set before this hydration).
    for (const part of ['tuning', 'heldOut'] as const) {
      expect(budgets[2000]?.[part]).toBeGreaterThanOrEqual(0.85);
      expect(budgets[600]?.[part]).toBeGreaterThanOrEqual(0.7);
    }
  }, 60_000);
});
