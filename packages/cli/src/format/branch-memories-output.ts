// Why: what `repomem memories promote`, `quarantine`, `quarantined` and `delete-quarantined` print:
// one line per record moved, listed or deleted, saying what it is and where it was learned, and
// the same facts as JSON.
import type { DeleteQuarantinedReport, PromotionReport, QuarantinedRecord, QuarantineReport } from '@repomem/core';
import type { CommandReport } from '../command-report.js';
import { okReport as ok } from '../command-report.js';

const KIND_WORDS: Readonly<Record<QuarantinedRecord['kind'], string>> = {
  memory: 'memory',
  knowledge: 'learning',
  episode: 'episode',
  rule: 'rule',
};

function pr(number: number | undefined): string {
  return number === undefined ? '' : ` (pull request #${number})`;
}

/** `promote`: each record moved and what re-verification at the merge commit said. */
export function describePromotion(report: PromotionReport): CommandReport {
  const head = `promoted ${report.promoted.length} ${report.promoted.length === 1 ? 'record' : 'records'} from ${report.ref} into ${report.defaultBranch} at ${report.mergeCommit}${pr(report.pullRequest)}`;
  const lines = report.promoted.map((record) => {
    const verdict =
      record.verification === 'valid'
        ? 'valid at the merge commit'
        : record.verification === 'invalidated'
          ? `invalidated: ${record.reason ?? 'a citation no longer holds'}`
          : record.verification === 'unverified'
            ? 'not verified now (the next recall checks it)'
            : '';
    return `  ${KIND_WORDS[record.kind]} ${record.id}  ${record.summary}${verdict === '' ? '' : `  ${verdict}`}`;
  });
  const text = report.promoted.length === 0 ? `${head} (nothing left on ${report.ref})` : [head, ...lines].join('\n');
  return ok('promoted', text, { ...report });
}

function listed(record: QuarantinedRecord): string {
  const learned = record.learned_on === undefined ? '' : ` at ${record.learned_on.commit.slice(0, 12)}`;
  return `  ${KIND_WORDS[record.kind]} ${record.id}  ${record.summary}  [${record.quarantine.ref}${learned}${pr(record.quarantine.pull_request)}, since ${record.quarantine.at}]`;
}

/** `quarantine`: each record quarantined now. */
export function describeQuarantine(report: QuarantineReport): CommandReport {
  const head = `quarantined ${report.quarantined.length} ${report.quarantined.length === 1 ? 'record' : 'records'} learned on ${report.ref}${pr(report.pullRequest)}: kept, never served; list them with repomem memories quarantined`;
  return ok('quarantined', [head, ...report.quarantined.map(listed)].join('\n'), { ...report });
}

/** `quarantined`: every quarantined record. */
export function describeQuarantined(records: readonly QuarantinedRecord[], ref: string | undefined): CommandReport {
  const where = ref === undefined ? '' : ` for ${ref}`;
  const text =
    records.length === 0
      ? `no quarantined records${where}`
      : [
          `${records.length} quarantined ${records.length === 1 ? 'record' : 'records'}${where}:`,
          ...records.map(listed),
        ].join('\n');
  return ok('quarantined_list', text, { records });
}

/** `delete-quarantined`: what was deleted, and ids that named no quarantined record. */
export function describeDeleted(report: DeleteQuarantinedReport): CommandReport {
  const lines = [
    `deleted ${report.deleted.length} quarantined ${report.deleted.length === 1 ? 'record' : 'records'}`,
    ...report.deleted.map(listed),
    ...report.notQuarantined.map((id) => `  ${id}: no quarantined record has this id (nothing deleted)`),
  ];
  return ok('deleted', lines.join('\n'), { ...report });
}
