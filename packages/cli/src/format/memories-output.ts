// Why: maps every verified-memory outcome to one short, stable text (stdout for results, stderr
// for outcomes the caller must act on), its exit code, and the `--json` object, in pure
// functions the unit tests pin down without a database.
import type {
  CitationCheck,
  CitationImpact,
  ImpactOutcome,
  ImpactReport,
  MemoryChangeOutcome,
  RecallResult,
  StoreOutcome,
  SupersedeOutcome,
  VerifiedMemory,
  VerifiedMemoryStats,
  VerifyOutcome,
} from '@repomem/core';
import { formatCitation } from '../citation-arg.js';
import { type CommandReport, failedReport as failed, okReport as ok } from '../command-report.js';
import { ExitCode } from '../errors.js';

/** What `repomem memories` prints for one outcome. */
export type MemoriesReport = CommandReport;

/** `<id>  <subject>` then the fact and citations, indented (the list form of a memory). */
export function formatMemory(memory: VerifiedMemory): string {
  const scope = memory.scope === null ? '' : `  [scope ${memory.scope}]`;
  return [
    `${memory.id}  ${memory.subject}${scope}`,
    `  ${memory.fact}`,
    `  cites ${memory.citations.map(formatCitation).join(', ')}`,
  ].join('\n');
}

/** The detailed form of one memory (`memories get`). */
export function formatMemoryDetails(memory: VerifiedMemory): string {
  const lines = [
    formatMemory(memory),
    `  status ${memory.status}${memory.invalid_reason === null ? '' : ` (${memory.invalid_reason})`}`,
    `  created ${memory.created_at}${memory.created_by === null ? '' : ` by ${memory.created_by}`}`,
    `  refreshed ${memory.refreshed_at}, expires ${memory.expires_at}, verified ${memory.verification_count} time(s)`,
  ];
  if (memory.reason !== null) lines.push(`  reason ${memory.reason}`);
  if (memory.supersedes !== null) lines.push(`  supersedes ${memory.supersedes}`);
  if (memory.superseded_by !== null) lines.push(`  superseded by ${memory.superseded_by}`);
  return lines.join('\n');
}

/** One line per check that did not hold: `  <path:range>: <reason>: <message>`. */
export function formatFailedChecks(checks: readonly CitationCheck[]): string[] {
  const lines: string[] = [];
  for (const check of checks) {
    if (check.kind === 'invalid') {
      lines.push(`  ${formatCitation(check.citation)}: ${check.reason}: ${check.message}`);
    } else if (check.kind === 'unavailable') {
      lines.push(`  ${formatCitation(check.citation)}: unavailable: ${check.message}`);
    }
  }
  return lines;
}

/** `memories store`: stored (with what it superseded) or rejected (exit 2). */
export function describeStoreOutcome(outcome: StoreOutcome): MemoriesReport {
  if (outcome.kind === 'rejected') {
    return failed(
      'rejected',
      [
        'rejected: a citation does not hold in the current code (nothing stored)',
        ...formatFailedChecks(outcome.checks),
      ].join('\n'),
      { checks: outcome.checks },
    );
  }
  const lines = [`stored memory ${outcome.memory.id}: ${outcome.memory.subject}`];
  for (const previous of outcome.superseded) lines.push(`superseded ${previous.id}: ${previous.subject}`);
  return ok('stored', lines.join('\n'), { memory: outcome.memory, superseded: outcome.superseded });
}

/** `memories recent` and `memories search`: the memories, newest or best first. */
export function describeMemoryList(repo: string, memories: readonly VerifiedMemory[]): MemoriesReport {
  const text =
    memories.length === 0
      ? `no active memories in ${repo}`
      : `${memories.length} active memor${memories.length === 1 ? 'y' : 'ies'} in ${repo}\n${memories.map(formatMemory).join('\n')}`;
  return ok('listed', text, { repo, count: memories.length, memories });
}

/** `memories get`: the memory in any status, or not found (exit 2). */
export function describeGet(repo: string, id: string, memory: VerifiedMemory | undefined): MemoriesReport {
  if (memory === undefined) return failed('not_found', `memory not found: ${id} in ${repo}`, { id, repo });
  return ok('found', formatMemoryDetails(memory), { memory });
}

/** `memories invalidate` (and the refresh of `verify --id`): changed, not found or not active (exit 2). */
export function describeChange(repo: string, verb: string, outcome: MemoryChangeOutcome): MemoriesReport {
  switch (outcome.kind) {
    case 'changed':
      return ok(verb, `${verb} memory ${outcome.memory.id}: ${outcome.memory.subject}`, { memory: outcome.memory });
    case 'not_found':
      return failed('not_found', `memory not found: ${outcome.id} in ${repo}`, { id: outcome.id, repo });
    case 'not_active':
      return failed('not_active', `memory ${outcome.memory.id} is ${outcome.memory.status}, not active (unchanged)`, {
        memory: outcome.memory,
      });
  }
}

/** `memories supersede`: the chain link made, or not found / not active / rejected (exit 2). */
export function describeSupersede(repo: string, outcome: SupersedeOutcome): MemoriesReport {
  switch (outcome.kind) {
    case 'superseded':
      return ok(
        'superseded',
        `superseded memory ${outcome.previous.id} by ${outcome.replacement.id}: ${outcome.replacement.subject}`,
        { previous: outcome.previous, replacement: outcome.replacement },
      );
    case 'rejected':
      return describeStoreOutcome(outcome);
    case 'not_found':
    case 'not_active':
      return describeChange(repo, 'superseded', outcome);
  }
}

/** Result of `verify --id`: what the check concluded and what was done (core's outcome of `verify`). */
export type VerifyOneResult = VerifyOutcome;

/**
 * `memories verify --id`: valid, invalidated and out of scope exit 0; unverified, not found, not
 * active exit 2.
 */
export function describeVerifyOne(repo: string, source: string, result: VerifyOneResult): MemoriesReport {
  switch (result.kind) {
    case 'valid': {
      const moved = result.checks.filter((check) => check.kind === 'relocated').length;
      const note = moved === 0 ? '' : ` (${moved} citation(s) re-anchored)`;
      return ok('valid', `valid ${result.memory.id}: ${result.memory.subject}${note}`, {
        source,
        memory: result.memory,
        checks: result.checks,
      });
    }
    case 'invalidated':
      return ok(
        'invalidated',
        [`invalidated ${result.memory.id}: ${result.memory.subject}`, ...formatFailedChecks(result.checks)].join('\n'),
        { source, memory: result.memory, checks: result.checks },
      );
    case 'unverified':
      return failed(
        'unverified',
        [
          `could not verify ${result.memory.id} against ${source} (unchanged)`,
          ...formatFailedChecks(result.checks),
        ].join('\n'),
        { source, memory: result.memory, checks: result.checks },
      );
    case 'out_of_scope':
      return ok(
        'out_of_scope',
        `out of scope ${result.memory.id}: ${result.memory.subject} (${result.verdict.message}; not verified, unchanged)`,
        { source, memory: result.memory, reason: result.verdict.reason, message: result.verdict.message },
      );
    case 'not_found':
    case 'not_active':
      return describeChange(repo, 'verified', result);
  }
}

/** `memories verify --all`: the recall loop's counts and one line per memory; exit 2 when some could not be verified. */
export function describeRecall(repo: string, source: string, result: RecallResult): MemoriesReport {
  const outOfScope = result.outOfScope ?? 0;
  const skipped =
    outOfScope === 0 ? '' : `, out of scope ${outOfScope} (learned on branches this ref does not contain)`;
  const lines = [
    `verified ${result.memories.length}, invalidated ${result.invalidated.length}, unverified ${result.unverified.length}${skipped} in ${repo} (source ${source})`,
  ];
  for (const memory of result.memories) lines.push(`valid ${memory.id}: ${memory.subject}`);
  for (const { memory, checks } of result.invalidated) {
    lines.push(`invalidated ${memory.id}: ${memory.subject}`, ...formatFailedChecks(checks));
  }
  for (const { memory, checks } of result.unverified) {
    lines.push(`unverified ${memory.id}: ${memory.subject}`, ...formatFailedChecks(checks));
  }
  const fields = {
    repo,
    source,
    verified: result.memories,
    invalidated: result.invalidated,
    unverified: result.unverified,
    out_of_scope: outOfScope,
  };
  return result.unverified.length === 0
    ? ok('recalled', lines.join('\n'), fields)
    : {
        exitCode: ExitCode.failed,
        stream: 'stdout',
        text: lines.join('\n'),
        json: { ok: false, outcome: 'recalled', ...fields },
      };
}

/** `memories stats`: counts by status and event, and the verification success rate. */
export function describeStats(stats: VerifiedMemoryStats): MemoriesReport {
  const rate =
    stats.verificationSuccessRate === null ? 'n/a' : `${Math.round(stats.verificationSuccessRate * 1000) / 10}%`;
  const events = Object.entries(stats.events)
    .map(([type, count]) => `${type} ${count}`)
    .join(', ');
  const text = [
    `memories in ${stats.repo}: active ${stats.byStatus.active}, invalid ${stats.byStatus.invalid}, superseded ${stats.byStatus.superseded}, expired ${stats.expired}`,
    `events: ${events}`,
    `verification success rate: ${rate}`,
  ].join('\n');
  return ok('stats', text, { ...stats });
}

const IMPACT_WORDS: Readonly<Record<ImpactOutcome, string>> = {
  invalidated: 'invalidated',
  unknown: 'unknown',
  reanchored: 're-anchored',
  valid: 'still valid',
};

/** One line per touched citation: where it is now, or why it would fail. */
function formatCitationImpact(impact: CitationImpact): string {
  const cited = formatCitation(impact.citation);
  switch (impact.kind) {
    case 'valid':
      return `  ${cited}: intact`;
    case 'reanchored':
      return `  ${cited} -> ${formatCitation(impact.anchored)}`;
    case 'invalidated':
      return `  ${cited}: ${impact.reason}: ${impact.message}`;
    case 'unknown':
      return `  ${cited}: unknown: ${impact.message}`;
  }
}

/**
 * `memories impact`: the memories whose citations the diff base..head touches, worst first, each
 * with its touched citations; always exit 0 (the report is the result).
 */
export function describeImpact(source: string, report: ImpactReport): MemoriesReport {
  const { counts } = report;
  const lines = [
    `impact of ${report.base}..${report.head} on ${report.checked} active memories in ${report.repo} (source ${source}): ` +
      `${report.touched.length} touched: invalidated ${counts.invalidated}, re-anchored ${counts.reanchored}, still valid ${counts.valid}, unknown ${counts.unknown}`,
  ];
  for (const impact of report.touched) {
    lines.push(
      `${IMPACT_WORDS[impact.outcome]} ${impact.memory.id}: ${impact.memory.subject}`,
      ...impact.citations.map(formatCitationImpact),
    );
  }
  return ok('impact', lines.join('\n'), {
    repo: report.repo,
    source,
    base: report.base,
    head: report.head,
    checked: report.checked,
    counts,
    touched: report.touched,
  });
}
