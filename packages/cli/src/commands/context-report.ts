// Why: what `repomem context` prints, decided in pure functions: the memory block (or JSON with
// the structured context and receipt), a receipt as a readable table, and a receipt diff.
import {
  type ContextReceipt,
  type DropReason,
  describeDropReason,
  type HydrateResult,
  type ReceiptDiff,
  type ReceiptItem,
} from '@repomem/core';
import { type CommandReport, failedReport, okReport } from '../command-report.js';

function failureLines(result: HydrateResult): string[] {
  return [
    ...result.errors.map(
      (failure) => `error: memory source ${failure.source} failed (${failure.category}): ${failure.message}`,
    ),
    ...result.warnings.map(
      (failure) => `memory source ${failure.source} skipped (${failure.category}): ${failure.message}`,
    ),
  ];
}

/** The report of a hydration: the Markdown block (`--markdown`/default) or the whole result (`--json`). */
export function describeHydration(result: HydrateResult): CommandReport {
  const dropped = result.dropped.length;
  const summary = `${result.receipt.items.length - dropped} memories included, ${dropped} dropped, ${result.receipt.used_tokens}/${result.receipt.budget_tokens} tokens (${result.receipt.estimator})`;
  const text = result.markdown === '' ? `(no memory for this task: ${summary})` : result.markdown;
  return okReport(
    'hydrated',
    text,
    {
      status: result.status,
      memory_available: result.memoryAvailable,
      markdown: result.markdown,
      context: result.context,
      receipt: result.receipt,
      warnings: result.warnings,
      errors: result.errors,
    },
    failureLines(result),
  );
}

/** `dropped (<reason>: <reason in words>)`, e.g. `dropped (below-floor: below the relevance floor)`. */
function droppedState(reason: DropReason | undefined): string {
  return reason === undefined ? 'dropped (unknown)' : `dropped (${reason}: ${describeDropReason(reason)})`;
}

function itemLine(item: ReceiptItem): string {
  const state = item.included ? 'included' : droppedState(item.reason);
  return `  ${item.source.padEnd(11)} ${item.id} r${item.revision}  score ${item.score.toFixed(2)}  ${item.tokens} tokens  ${state}`;
}

/** A stored receipt as text, or a not-found failure. */
export function describeReceipt(taskId: string, receipt: ContextReceipt | undefined): CommandReport {
  if (receipt === undefined)
    return failedReport('not_found', `no context receipt for task ${taskId}`, { task_id: taskId });
  const lines = [
    `context receipt of task ${taskId} on ${receipt.repo} (${receipt.created_at})`,
    `  prompt version ${receipt.prompt_version ?? '(none)'}, commit ${receipt.commit ?? '(none)'}, user ${receipt.user ?? '(none)'}`,
    `  ${receipt.used_tokens}/${receipt.budget_tokens} tokens (${receipt.estimator}); words: ${receipt.query_terms.join(' ') || '(none)'}`,
    ...receipt.sources.map(
      (source) =>
        `  source ${source.source}: ${source.status}${source.category === undefined ? '' : ` (${source.category}: ${source.message ?? ''})`}, ${source.candidates} candidates, ${source.ms} ms`,
    ),
    ...receipt.items.map(itemLine),
    ...(receipt.items_omitted > 0 ? [`  (${receipt.items_omitted} dropped candidates not kept)`] : []),
  ];
  return okReport('receipt', lines.join('\n'), { receipt });
}

/** A receipt diff as text, or a not-found failure naming the missing task. */
export function describeDiff(a: string, b: string, diff: ReceiptDiff | { readonly missing: string }): CommandReport {
  if ('missing' in diff) {
    return failedReport('not_found', `no context receipt for task ${diff.missing}`, { task_id: diff.missing });
  }
  const lines = [`context of ${a} -> ${b}: ${diff.items.length} changes, ${diff.unchanged} unchanged`];
  for (const item of diff.items) {
    const before =
      item.before === undefined
        ? 'absent'
        : item.before.included
          ? `r${item.before.revision}`
          : droppedState(item.before.reason);
    const after =
      item.after === undefined
        ? 'absent'
        : item.after.included
          ? `r${item.after.revision}`
          : droppedState(item.after.reason);
    lines.push(`  ${item.change.padEnd(8)} ${item.source} ${item.id}: ${before} -> ${after}`);
  }
  if (diff.promptVersion !== undefined)
    lines.push(`  prompt version: ${diff.promptVersion.before ?? '(none)'} -> ${diff.promptVersion.after ?? '(none)'}`);
  if (diff.commit !== undefined)
    lines.push(`  commit: ${diff.commit.before ?? '(none)'} -> ${diff.commit.after ?? '(none)'}`);
  for (const source of diff.sources)
    lines.push(`  source ${source.source}: ${source.before ?? 'absent'} -> ${source.after ?? 'absent'}`);
  lines.push(`  tokens: ${diff.tokens.before} -> ${diff.tokens.after}`);
  return okReport('diff', lines.join('\n'), { a, b, diff });
}
