// Why: the wording of `repomem rules` outcomes, kept apart from the wiring: each result becomes
// one report (text for people, one JSON object for scripts) with the same fields.
import type {
  CandidateRule,
  ExtractReviewRulesResult,
  ParsedRuleOutput,
  RejectedRuleLine,
  RuleDecisionOutcome,
  SavedRuleOutcome,
  SaveRulesResult,
  StoredRule,
  SupersedeRuleOutcome,
} from '@repomem/core';
import { ruleRecordId } from '@repomem/core';
import { type CommandReport, failedReport, okReport } from '../command-report.js';

function rejectedJson(line: RejectedRuleLine): Record<string, unknown> {
  return {
    line: line.line,
    text: line.text,
    reasons: line.rejections.map((r) => ({ reason: r.reason, message: r.message })),
  };
}

function ruleJson(rule: StoredRule): Record<string, unknown> {
  return { id: rule.id, revision: rule.revision, ...rule.data };
}

function outcomeJson(outcome: SavedRuleOutcome): Record<string, unknown> {
  if (outcome.kind === 'refused') {
    return {
      outcome: 'refused',
      rule: outcome.candidate.rule,
      reason: outcome.rejection.reason,
      message: outcome.rejection.message,
    };
  }
  return {
    outcome: outcome.kind,
    id: outcome.rule.id,
    rule: outcome.rule.data.rule,
    ...('supersedes' in outcome ? { supersedes: outcome.supersedes } : {}),
    ...('reasons' in outcome ? { reasons: outcome.reasons } : {}),
  };
}

function candidateJson(rule: CandidateRule): Record<string, unknown> {
  return {
    id: ruleRecordId(rule.rule, rule.scope),
    line: rule.line,
    rule: rule.rule,
    ...(rule.scope === undefined ? {} : { scope: rule.scope }),
    authority: rule.authority,
    weight: rule.weight,
    provenance: rule.provenance,
    ...(rule.pendingReasons === undefined ? {} : { reasons: rule.pendingReasons }),
  };
}

function parsedLines(parsed: ParsedRuleOutput, saved: SaveRulesResult | undefined): string[] {
  const lines: string[] = [];
  for (const rule of parsed.accepted) {
    lines.push(`accepted: ${rule.scope === undefined ? '' : `[${rule.scope}] `}${rule.rule} (weight ${rule.weight})`);
  }
  for (const rule of parsed.pending) {
    lines.push(
      `pending: ${rule.scope === undefined ? '' : `[${rule.scope}] `}${rule.rule} (${(rule.pendingReasons ?? []).map((r) => `${r.reason}: ${r.message}`).join('; ')})`,
    );
  }
  for (const line of parsed.rejected) {
    lines.push(`refused line ${line.line}: ${line.rejections.map((r) => `${r.reason} (${r.message})`).join('; ')}`);
  }
  for (const outcome of saved?.outcomes ?? []) {
    if (outcome.kind === 'refused') lines.push(`not stored: ${outcome.candidate.rule}: ${outcome.rejection.message}`);
    else lines.push(`${outcome.kind === 'pending' ? 'stored pending' : outcome.kind}: ${outcome.rule.id}`);
  }
  for (const old of saved?.superseded ?? []) lines.push(`superseded: ${old.id} (by ${old.by})`);
  if (parsed.noRules && parsed.accepted.length === 0) lines.push('the model found no general rule');
  if (lines.length === 0) lines.push('no rule lines');
  return lines;
}

/** Report of `rules parse` (and the parse step of `rules extract`). */
export function describeParsed(
  repo: string,
  promptVersion: string,
  parsed: ParsedRuleOutput,
  saved: SaveRulesResult | undefined,
): CommandReport {
  return okReport('parsed', parsedLines(parsed, saved).join('\n'), {
    repo,
    prompt_version: promptVersion,
    accepted: parsed.accepted.map(candidateJson),
    pending: parsed.pending.map(candidateJson),
    refused: parsed.rejected.map(rejectedJson),
    /** The refused lines under their earlier name, for scripts written before `refused`. */
    rejected: parsed.rejected.map(rejectedJson),
    no_rules: parsed.noRules,
    ignored_lines: parsed.ignoredLines,
    ...(saved === undefined ? {} : { saved: saved.outcomes.map(outcomeJson), superseded: saved.superseded }),
  });
}

/** Report of `rules extract`. */
export function describeExtract(repo: string, pr: number, result: ExtractReviewRulesResult): CommandReport {
  if (result.kind === 'skipped') {
    return okReport('skipped', `review of PR #${pr} skipped: ${result.message}`, {
      repo,
      pr,
      reason: result.reason,
      message: result.message,
    });
  }
  const report = describeParsed(repo, result.promptVersion, result.parsed, result.saved);
  return { ...report, json: { ...report.json, outcome: 'extracted', pr } };
}

/** Report of `rules list`. */
export function describeRuleList(repo: string, rules: readonly StoredRule[]): CommandReport {
  const text =
    rules.length === 0
      ? `no rules in ${repo}`
      : rules
          .map((rule) => {
            const p = rule.data.provenance;
            const origin = p.pr === undefined ? `by @${p.reviewer}` : `PR #${p.pr}, @${p.reviewer}`;
            const scope = rule.data.scope === undefined ? '' : `[${rule.data.scope}] `;
            const why =
              rule.data.status === 'pending'
                ? `\n    waiting for a maintainer: ${rule.data.pending_reasons.map((r) => `${r.reason} (${r.message})`).join('; ')}`
                : '';
            return `${rule.id}  ${rule.data.status}  ${rule.data.weight}  ${scope}${rule.data.rule}  (${origin})${why}`;
          })
          .join('\n');
  return okReport('listed', text, { repo, count: rules.length, rules: rules.map(ruleJson) });
}

/** Report of `rules supersede`. */
export function describeSupersedeRule(repo: string, outcome: SupersedeRuleOutcome): CommandReport {
  switch (outcome.kind) {
    case 'not_found':
      return failedReport('not_found', `no rule ${outcome.id} in ${repo}`, { repo, id: outcome.id });
    case 'not_active':
      return failedReport('not_active', `rule ${outcome.rule.id} is ${outcome.rule.data.status}, not active`, {
        repo,
        rule: ruleJson(outcome.rule),
      });
    default:
      return okReport(
        'superseded',
        `superseded ${outcome.old.id}${outcome.replacement === undefined ? '' : ` by ${outcome.replacement.id}`}`,
        {
          repo,
          old: ruleJson(outcome.old),
          ...(outcome.replacement === undefined ? {} : { replacement: ruleJson(outcome.replacement) }),
        },
      );
  }
}

/** Report of `rules approve` and `rules reject`. */
export function describeRuleDecision(repo: string, outcome: RuleDecisionOutcome): CommandReport {
  switch (outcome.kind) {
    case 'not_found':
      return failedReport('not_found', `no rule ${outcome.id} in ${repo}`, { repo, id: outcome.id });
    case 'not_pending':
      return failedReport('not_pending', `rule ${outcome.rule.id} is ${outcome.rule.data.status}, not pending`, {
        repo,
        rule: ruleJson(outcome.rule),
      });
    case 'approved':
      return okReport(
        'approved',
        `approved ${outcome.rule.id} (by @${outcome.rule.data.decision?.by}): active from the next task${outcome.superseded.length === 0 ? '' : `; superseded ${outcome.superseded.join(', ')}`}`,
        { repo, rule: ruleJson(outcome.rule), superseded: outcome.superseded },
      );
    case 'rejected':
      return okReport('rejected', `rejected ${outcome.rule.id} (by @${outcome.rule.data.decision?.by})`, {
        repo,
        rule: ruleJson(outcome.rule),
      });
  }
}
