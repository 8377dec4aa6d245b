// Why: seed 003 states performance budgets and issue 4 sets goals 20 times tighter; a figure is
// only meaningful next to both, so budgeted operations get one table with the measured p50/p95,
// the budget and the goal side by side, plus goal rows for the report's summary.
import { formatMs, markdownTable } from './table.mjs';

/**
 * Markdown table of `{ label, stats, budgetMs, goalMs, budgetNote? }` rows: n, p50, p95, seed
 * budget, goal, and whether p50 is within each (p95 shown so a met p50 cannot hide a slow tail).
 */
export function budgetTable(rows) {
  const verdict = (ms, limit) => (ms < limit ? 'yes' : '**NO**');
  return markdownTable(
    ['operation', 'n', 'p50 ms', 'p95 ms', 'seed 003 budget', 'goal (20x)', 'p50 within budget', 'p50 meets goal'],
    rows.map((row) => [
      row.label,
      row.stats.n,
      formatMs(row.stats.p50),
      formatMs(row.stats.p95),
      `< ${formatMs(row.budgetMs)} ms${row.budgetNote ? ` (${row.budgetNote})` : ''}`,
      `< ${formatMs(row.goalMs)} ms`,
      verdict(row.stats.p50, row.budgetMs),
      verdict(row.stats.p50, row.goalMs),
    ]),
  );
}

/** Goal rows (`{ goal, measured, met }`) for the report's summary, one per budget row. */
export function budgetGoals(prefix, rows) {
  return rows.map((row) => ({
    goal: `${prefix}: ${row.label} p50 < ${formatMs(row.goalMs)} ms (seed 003 budget ${formatMs(row.budgetMs)} ms)`,
    measured: `p50 ${formatMs(row.stats.p50)} ms, p95 ${formatMs(row.stats.p95)} ms`,
    met: row.stats.p50 < row.goalMs,
  }));
}
