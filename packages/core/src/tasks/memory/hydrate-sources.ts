// Why: each memory source hydration reads (review rules, verified memories, knowledge, similar
// episodes, user preferences) turns its records into scored candidates, each with the one
// Markdown line it would add to the prompt. Kept apart from budgeting and rendering so each
// source can be read, timed out and failed on its own.
import type { ScopeVerdict } from '../../scope/branch-scope.js';
import type { LearnedOnFields } from '../../verified/learned-on.js';
import type { TaskRecord, TaskRecordBackend } from '../record-backend.js';
import { ruleFromRecord } from '../rules/rule-record.js';
import { renderRuleLine } from '../rules/rule-render.js';
import { episodeFromRecord } from './episode-record.js';
import type {
  ContextEpisode,
  ContextKnowledge,
  ContextPreference,
  ContextRule,
  ContextVerifiedMemory,
  HydrateOptions,
} from './hydrate-types.js';
import { knowledgeFromRecord } from './knowledge-record.js';
import { listPreferenceRecords, preferenceFromRecord } from './preferences.js';
import type { ContextSource } from './receipt.js';

/** A candidate entry of one source. */
export type CandidateEntry =
  | { readonly source: 'rules'; readonly value: ContextRule }
  | { readonly source: 'verified'; readonly value: ContextVerifiedMemory }
  | { readonly source: 'knowledge'; readonly value: ContextKnowledge }
  | { readonly source: 'episodes'; readonly value: ContextEpisode }
  | { readonly source: 'preferences'; readonly value: ContextPreference };

/** One scored candidate with its rendered line. */
export interface Candidate {
  readonly source: ContextSource;
  readonly id: string;
  readonly revision: number;
  /**
   * Higher first. A reader sets the part that does not depend on the task (a rule's reviewer
   * weight); `hydrate` replaces it with the relevance score (see `hydrate-relevance.ts`).
   */
  readonly score: number;
  /** The text relevance is judged on (the record's searchable text). */
  readonly text: string;
  /** Directory, module or file pattern the memory applies to, matched against files the task names. */
  readonly scope?: string | null;
  /** Set by `hydrate`: false when the candidate is below the relevance floor. */
  readonly relevant?: boolean;
  /** Milliseconds of the last update (older drops first at equal score). */
  readonly updatedMs: number;
  /** The Markdown bullet it adds (one line). */
  readonly line: string;
  readonly entry: CandidateEntry;
  /** Where the record was learned (branch scope); absent = the default branch's scope. */
  readonly learned?: LearnedOnFields;
}

/** What a source read: its candidates, and records it had to skip (corrupt). */
export interface SourceRead {
  readonly candidates: readonly Candidate[];
  readonly skipped: readonly { readonly id: string; readonly error: unknown }[];
  /** Records left out because the source had more than its candidate limit (the lowest scores). */
  readonly beyondLimit?: number;
}

/** Default candidates considered per source. */
export const DEFAULT_SOURCE_LIMITS: Readonly<Record<ContextSource, number>> = Object.freeze({
  rules: 100,
  verified: 20,
  knowledge: 50,
  episodes: 20,
  preferences: 50,
});

/**
 * Records a source reads before scoring (those holding a word of the task, and the newest), when
 * its `limit` is smaller: the best `limit` of them are kept once scored.
 */
export const CANDIDATE_POOL = 100;

/** Longest rendered episode line, in characters. */
const MAX_EPISODE_LINE = 600;

/**
 * `parse` memoised per record object: backends that cache records (the document backend returns
 * the same object until the record changes) parse each one once, not on every hydration.
 */
function memoByRecord<T>(parse: (record: TaskRecord) => T): (record: TaskRecord) => T {
  const memo = new WeakMap<TaskRecord, T>();
  return (record) => {
    let value = memo.get(record);
    if (value === undefined) {
      value = parse(record);
      memo.set(record, value);
    }
    return value;
  };
}

const parseRule = memoByRecord(ruleFromRecord);
const parseKnowledge = memoByRecord(knowledgeFromRecord);
const parseEpisode = memoByRecord(episodeFromRecord);
const parsePreference = memoByRecord(preferenceFromRecord);

/** One line of text: whitespace runs (newlines included) collapsed, so an entry cannot start a heading. */
export function oneLine(text: string, max = 1000): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** What every source reader receives. */
export interface SourceContext {
  readonly options: HydrateOptions;
  readonly backend: TaskRecordBackend;
  readonly repo: string;
  /** Search words of the task (exact words, for the backend's search). */
  readonly terms: readonly string[];
  /** Candidates read per source before scoring (the best `limit` are kept after scoring). */
  readonly limit: number;
  readonly signal: AbortSignal;
  /** Branch scope of the records (one verdict per record, same order); see `scopeVerdicts`. */
  readonly judge: (records: readonly LearnedOnFields[]) => Promise<readonly ScopeVerdict[]>;
}

/** The learned-on fields of a record's data (only those present). */
function learnedOf(data: LearnedOnFields): LearnedOnFields {
  return {
    ...(data.learned_on === undefined ? {} : { learned_on: data.learned_on }),
    ...(data.quarantine === undefined ? {} : { quarantine: data.quarantine }),
  };
}

/** `read` without the candidates out of the branch scope (learned on a branch the ref does not contain, quarantined). */
async function inScopeOnly(context: SourceContext, read: SourceRead): Promise<SourceRead> {
  if (read.candidates.every((candidate) => candidate.learned === undefined)) return read;
  const verdicts = await context.judge(read.candidates.map((candidate) => candidate.learned ?? {}));
  return { ...read, candidates: read.candidates.filter((_, index) => verdicts[index]?.kind !== 'out_of_scope') };
}

/** The parts of a candidate that depend only on the record (memoised per record object). */
type StaticCandidate = Candidate;

/** `build` memoised per record; `null` marks a record that is not a candidate (inactive). */
function staticBuilder(
  build: (record: TaskRecord) => StaticCandidate | null,
): (record: TaskRecord) => StaticCandidate | null {
  return memoByRecord(build);
}

/**
 * Candidates of `records` (each built once per record object; `hydrate` scores them); records
 * whose data does not parse are skipped and returned as such.
 */
function collect(
  records: readonly TaskRecord[],
  build: (record: TaskRecord) => StaticCandidate | null,
  exclude?: string,
): SourceRead {
  const candidates: Candidate[] = [];
  const skipped: { id: string; error: unknown }[] = [];
  for (const record of records) {
    if (record.id === exclude) continue;
    try {
      const built = build(record);
      if (built !== null) candidates.push(built);
    } catch (error) {
      skipped.push({ id: record.id, error });
    }
  }
  return { candidates, skipped };
}

/**
 * The records a source considers: those holding any of the task's words (best first, up to
 * `limit`) and the newest `limit` (so a memory that shares no exact word with the task, such as
 * an inflected form or a paraphrase, is still scored), without repeats.
 */
async function searchAndRecent(context: SourceContext, kind: 'knowledge' | 'episode'): Promise<TaskRecord[]> {
  const { backend, repo, terms, limit } = context;
  const [matched, recent] = await Promise.all([
    terms.length === 0
      ? Promise.resolve([] as TaskRecord[])
      : backend.search({ repo, kind, text: terms.join(' '), match: 'any', limit, signal: context.signal }),
    backend.list({ repo, kind, limit, signal: context.signal }),
  ]);
  const seen = new Set<string>();
  return [...matched, ...recent].filter((record) => !seen.has(record.id) && seen.add(record.id) !== undefined);
}

const ruleCandidate = staticBuilder((record) => {
  const rule = parseRule(record);
  if (rule.data.status !== 'active') return null;
  const value: ContextRule = {
    id: rule.id,
    rule: rule.data.rule,
    ...(rule.data.scope === undefined ? {} : { scope: rule.data.scope }),
    weight: rule.data.weight,
    reviewer: rule.data.provenance.reviewer,
    ...(rule.data.provenance.pr === undefined ? {} : { pr: rule.data.provenance.pr }),
    date: rule.data.provenance.reviewed_at ?? rule.data.provenance.extracted_at,
  };
  return {
    source: 'rules',
    id: rule.id,
    revision: rule.revision,
    score: rule.data.weight,
    text: record.text,
    ...(value.scope === undefined ? {} : { scope: value.scope }),
    updatedMs: Date.parse(rule.updated_at),
    // Quoted, attributed data: nothing in a rule can close the section or start a line (rule-render.ts).
    line: renderRuleLine(value),
    entry: { source: 'rules', value },
    ...(rule.data.learned_on === undefined && rule.data.quarantine === undefined
      ? {}
      : { learned: learnedOf(rule.data) }),
  };
});

/** Review rules: every active rule (its score starts as the reviewer weight). */
export async function readRules(context: SourceContext): Promise<SourceRead> {
  const records = await context.backend.list({ repo: context.repo, kind: 'rule', signal: context.signal });
  return inScopeOnly(context, collect(records, ruleCandidate));
}

/** Verified memories: `recall` (verified against the code now). */
export async function readVerified(context: SourceContext): Promise<SourceRead> {
  const service = context.options.verified;
  if (service === undefined) return { candidates: [], skipped: [] };
  const recalled = await service.recall(context.repo, {
    limit: context.limit,
    ...(context.options.commit === undefined ? {} : { ref: context.options.commit }),
    ...(context.options.branch === undefined ? {} : { branch: context.options.branch }),
  });
  const candidates = recalled.memories.map((memory): Candidate => {
    const value: ContextVerifiedMemory = {
      id: memory.id,
      subject: memory.subject,
      fact: memory.fact,
      scope: memory.scope,
      citations: memory.citations.map((citation) => ({
        path: citation.path,
        line_start: citation.line_start,
        line_end: citation.line_end,
      })),
    };
    const cite = value.citations
      .slice(0, 2)
      .map((citation) => `${citation.path}:${citation.line_start}`)
      .join(', ');
    return {
      source: 'verified',
      id: memory.id,
      revision: memory.revision,
      score: 0,
      text: `${memory.subject}\n${memory.fact}\n${memory.scope ?? ''}`,
      scope: memory.scope,
      updatedMs: Date.parse(memory.refreshed_at),
      line: `- **${oneLine(memory.subject, 200)}**: ${oneLine(memory.fact, 800)} (${cite})`,
      entry: { source: 'verified', value },
    };
  });
  return { candidates, skipped: [] };
}

const knowledgeCandidate = staticBuilder((record) => {
  const knowledge = parseKnowledge(record);
  if (knowledge.data.status !== 'active') return null;
  const value: ContextKnowledge = {
    id: knowledge.id,
    subject: knowledge.data.subject,
    scope: knowledge.data.scope,
    fact: knowledge.data.fact,
    insight_type: knowledge.data.insight_type,
  };
  const scope = value.scope === null ? '' : ` (${oneLine(value.scope, 160)})`;
  return {
    source: 'knowledge',
    id: knowledge.id,
    revision: knowledge.revision,
    score: 0,
    text: record.text,
    scope: value.scope,
    updatedMs: Date.parse(knowledge.updated_at),
    line: `- **${oneLine(value.subject, 200)}**${scope}: ${oneLine(value.fact, 800)}`,
    entry: { source: 'knowledge', value },
    ...(knowledge.data.learned_on === undefined && knowledge.data.quarantine === undefined
      ? {}
      : { learned: learnedOf(knowledge.data) }),
  };
});

/** Repository knowledge (learnings and self-feedback): active records. */
export async function readKnowledge(context: SourceContext): Promise<SourceRead> {
  return inScopeOnly(context, collect(await searchAndRecent(context, 'knowledge'), knowledgeCandidate));
}

function outcomeText(episode: ContextEpisode): string {
  const outcome =
    episode.outcome === 'positive' ? ', PR merged' : episode.outcome === 'negative' ? ', PR closed unmerged' : '';
  return `${episode.status}${outcome}`;
}

const episodeCandidate = staticBuilder((record) => {
  const episode = parseEpisode(record);
  const data = episode.data;
  const value: ContextEpisode = {
    id: episode.id,
    status: data.status,
    outcome: data.outcome,
    ...(data.description === undefined ? {} : { description: data.description }),
    ...(data.approach === undefined ? {} : { approach: data.approach }),
    ...(data.difficulties === undefined ? {} : { difficulties: data.difficulties }),
    ...(data.pr_url === undefined ? {} : { pr_url: data.pr_url }),
  };
  const parts = [
    value.description,
    value.approach === undefined ? undefined : `Approach: ${value.approach}`,
    value.difficulties === undefined ? undefined : `Difficulties: ${value.difficulties}`,
  ].filter((part): part is string => part !== undefined);
  return {
    source: 'episodes',
    id: episode.id,
    revision: episode.revision,
    score: 0,
    text: record.text,
    updatedMs: Date.parse(episode.updated_at),
    line: oneLine(`- Task ${episode.id} (${outcomeText(value)}): ${parts.join(' ') || 'no summary'}`, MAX_EPISODE_LINE),
    entry: { source: 'episodes', value },
    ...(data.learned_on === undefined && data.quarantine === undefined ? {} : { learned: learnedOf(data) }),
  };
});

/**
 * Similar past tasks: episodes (merged, closed unmerged or without a pull request alike). Not
 * branch-scoped: an episode records what an attempt did and how its pull request ended, not a
 * fact about the code, and its use is on other branches (an approach closed unmerged on
 * `feature/x` is the warning a similar task on `main` needs). Quarantine never marks episodes.
 */
export async function readEpisodes(context: SourceContext): Promise<SourceRead> {
  const records = await searchAndRecent(context, 'episode');
  return collect(records, episodeCandidate, context.options.task.id);
}

const preferenceCandidate = staticBuilder((record) => {
  const preference = parsePreference(record);
  const value: ContextPreference = {
    id: preference.id,
    topic: preference.data.topic,
    preference: preference.data.preference,
  };
  return {
    source: 'preferences',
    id: preference.id,
    revision: preference.revision,
    score: 0,
    text: record.text,
    updatedMs: Date.parse(preference.updated_at),
    line: `- ${oneLine(value.preference, 500)}`,
    entry: { source: 'preferences', value },
  };
});

/** The submitting user's preferences. */
export async function readPreferences(context: SourceContext): Promise<SourceRead> {
  const user = context.options.task.user;
  if (user === undefined) return { candidates: [], skipped: [] };
  const records = await listPreferenceRecords(context.backend, context.repo, user, { signal: context.signal });
  return collect(records, preferenceCandidate);
}

/** The reader of each source. */
export const SOURCE_READERS: Readonly<Record<ContextSource, (context: SourceContext) => Promise<SourceRead>>> =
  Object.freeze({
    rules: readRules,
    verified: readVerified,
    knowledge: readKnowledge,
    episodes: readEpisodes,
    preferences: readPreferences,
  });
