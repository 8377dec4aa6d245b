// Why: results are printed to the terminal and written to RESULTS.md as the same Markdown
// tables, so what a developer sees while it runs is exactly what gets recorded.

/** Format milliseconds for a table cell (3 significant figures, at least 2 decimals below 1 ms). */
export function formatMs(ms) {
  if (!Number.isFinite(ms)) return 'n/a';
  if (ms >= 100) return ms.toFixed(0);
  if (ms >= 10) return ms.toFixed(1);
  return ms.toFixed(2);
}

/** Ratio of baseline to measured time as `12x faster` / `3.9x slower`, or an empty cell. */
export function formatSpeedup(baselineMs, measuredMs) {
  if (!Number.isFinite(baselineMs) || !Number.isFinite(measuredMs) || measuredMs <= 0) return '';
  const ratio = baselineMs / measuredMs;
  if (ratio < 1) return `${(1 / ratio).toFixed(1)}x slower`;
  return `${ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(1)}x faster`;
}

/** Render a Markdown table from a header row and rows of cells. */
export function markdownTable(header, rows) {
  const escapeCell = (cell) => String(cell).replace(/\|/g, '\\|');
  const lines = [`| ${header.map(escapeCell).join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.map(escapeCell).join(' | ')} |`);
  return lines.join('\n');
}

/** A paired ratio summary (`summarizeRatios`) as `1.42x (1.30-1.61)`: median, then min-max. */
export function formatRatio(ratio) {
  if (!ratio || !Number.isFinite(ratio.p50)) return '';
  return `${ratio.p50.toFixed(2)}x (${ratio.min.toFixed(2)}-${ratio.max.toFixed(2)})`;
}

/**
 * Table of timing rows: `{ label, kind: 'repomem' | 'baseline' | 'reference', stats, baseline? }`
 * where `baseline` names the label of the row its speed-up is computed against. Rows may also
 * carry `paired` (a `summarizeRatios` result against their baseline, measured A B A B) and
 * `loaded` (a cell of text about the JavaScript the command loads); each adds a column only when
 * some row has it, so tables without them are unchanged.
 */
export function timingTable(rows) {
  const byLabel = new Map(rows.map((row) => [row.label, row]));
  const withPaired = rows.some((row) => row.paired);
  const withLoaded = rows.some((row) => row.loaded !== undefined);
  const header = ['case', 'kind', 'n', 'p50 ms', 'p95 ms', 'mean ms', 'p50 vs baseline'];
  if (withPaired) header.push('paired A/B ratio: median (min-max)');
  if (withLoaded) header.push('JS loaded');
  return markdownTable(
    header,
    rows.map((row) => {
      const base = row.baseline ? byLabel.get(row.baseline) : undefined;
      const cells = [
        row.label,
        row.kind,
        row.stats.n,
        formatMs(row.stats.p50),
        formatMs(row.stats.p95),
        formatMs(row.stats.mean),
        base ? `${formatSpeedup(base.stats.p50, row.stats.p50)} (vs ${row.baseline})` : '',
      ];
      if (withPaired) cells.push(formatRatio(row.paired));
      if (withLoaded) cells.push(row.loaded ?? '');
      return cells;
    }),
  );
}

/** Table of goals: `{ goal, measured, met }`. */
export function goalTable(goals) {
  return markdownTable(
    ['goal', 'measured', 'met'],
    goals.map((goal) => [goal.goal, goal.measured, goal.met ? 'yes' : '**NO**']),
  );
}
