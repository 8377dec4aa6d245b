// Why: each memory source hydration reads (review rules, verified memories, knowledge, similar
// episodes, user preferences) turns its records into scored candidates, each with the one
// Markdown line it would add to the prompt. Kept apart from budgeting and rendering so each
// source can be read, timed out and failed on its own.
import type { TaskRecord, TaskRecordBackend } from '../record-backend.js';
import { analyzeTaskRecordText } from '../record-rules.js';
import { ruleFromRecord } from '../rules/rule-record.js';
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
import { preferenceFromRecord, preferencePrefix } from './preferences.js';
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
  /** Higher first within the source. */
  readonly score: number;
  /** Milliseconds of the last update (older drops first at equal score). */
  readonly updatedMs: number;
  /** The Markdown bullet it adds (one line). */
  readonly line: string;
  readonly entry: CandidateEntry;
}

/** What a source read: its candidates, and records it had to skip (corrupt). */
export interface SourceRead {
  readonly candidates: readonly Candidate[];
  readonly skipped: readonly { readonly id: string; readonly error: unknown }[];
  /** Records left out because the source had more than its candidate limit (the lowest scores). */
  readonly beyondLimit?: number;
}

/** Score added to an episode whose pull request was merged (subtracted when closed unmerged). */
export const OUTCOME_SCORE_BONUS = 0.25;

/** Default candidates considered per source. */
export const DEFAULT_SOURCE_LIMITS: Readonly<Record<ContextSource, number>> = Object.freeze({
  rules: 100,
  verified: 20,
  knowledge: 50,
  episodes: 20,
  preferences: 50,
});

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
const analyzeRecord = memoByRecord((record) => analyzeTaskRecordText(record.text).words);

/** One line of text: whitespace runs (newlines included) collapsed, so an entry cannot start a heading. */
export function oneLine(text: string, max = 1000): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Relevance of a text (or a record's text) to the task's terms: the share of terms it contains (0-1). */
export function relevance(text: string | TaskRecord, terms: readonly string[]): number {
  if (terms.length === 0) return 0;
  const words = typeof text === 'string' ? analyzeTaskRecordText(text).words : analyzeRecord(text);
  let matched = 0;
  for (const term of terms) if (words.has(term)) matched += 1;
  return matched / terms.length;
}

/** What every source reader receives. */
export interface SourceContext {
  readonly options: HydrateOptions;
  readonly backend: TaskRecordBackend;
  readonly repo: string;
  readonly terms: readonly string[];
  readonly limit: number;
  readonly signal: AbortSignal;
}

/** The parts of a candidate that depend only on the record (memoised per record object). */
interface StaticCandidate extends Omit<Candidate, 'score'> {
  /** Score before relevance (reviewer weight, outcome bonus). */
  readonly base: number;
  /** Weight of relevance in the score. */
  readonly relevanceWeight: number;
}

/** `build` memoised per record; `null` marks a record that is not a candidate (inactive). */
function staticBuilder(
  build: (record: TaskRecord) => StaticCandidate | null,
): (record: TaskRecord) => StaticCandidate | null {
  return memoByRecord(build);
}

/**
 * Candidates of `records` (each built once per record object, scored now), best first, at most
 * `limit`; records whose data does not parse are skipped and returned as such.
 */
function collect(
  records: readonly TaskRecord[],
  build: (record: TaskRecord) => StaticCandidate | null,
  context: SourceContext,
  exclude?: string,
): SourceRead {
  const candidates: Candidate[] = [];
  const skipped: { id: string; error: unknown }[] = [];
  for (const record of records) {
    if (record.id === exclude) continue;
    try {
      const built = build(record);
      if (built === null) continue;
      const { base, relevanceWeight, ...candidate } = built;
      candidates.push({ ...candidate, score: base + relevanceWeight * relevance(record, context.terms) });
    } catch (error) {
      skipped.push({ id: record.id, error });
    }
  }
  candidates.sort((a, b) => b.score - a.score || b.updatedMs - a.updatedMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const beyondLimit = Math.max(0, candidates.length - context.limit);
  return { candidates: candidates.slice(0, context.limit), skipped, beyondLimit };
}

/** Records matching any term (best first) merged with the newest ones, without repeats. */
async function searchAndRecent(
  context: SourceContext,
  kind: 'knowledge' | 'episode',
  recentLimit: number,
): Promise<TaskRecord[]> {
  const { backend, repo, terms, limit } = context;
  const [matched, recent] = await Promise.all([
    terms.length === 0
      ? Promise.resolve([] as TaskRecord[])
      : backend.search({ repo, kind, text: terms.join(' '), match: 'any', limit, signal: context.signal }),
    backend.list({ repo, kind, limit: Math.min(limit, recentLimit), signal: context.signal }),
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
  };
  const scope = value.scope === undefined ? '' : ` (in ${oneLine(value.scope, 160)})`;
  const from = value.pr === undefined ? `from @${value.reviewer}` : `review by @${value.reviewer} on PR #${value.pr}`;
  return {
    source: 'rules',
    id: rule.id,
    revision: rule.revision,
    base: 0.5 * rule.data.weight,
    relevanceWeight: 0.5,
    updatedMs: Date.parse(rule.updated_at),
    line: `- ${oneLine(value.rule, 300)}${scope} — ${from}`,
    entry: { source: 'rules', value },
  };
});

/** Review rules: every active rule, scored by reviewer weight and relevance (half each). */
export async function readRules(context: SourceContext): Promise<SourceRead> {
  const records = await context.backend.list({ repo: context.repo, kind: 'rule', signal: context.signal });
  return collect(records, ruleCandidate, context);
}

/** Verified memories: `recall` (verified against the code now), scored by relevance. */
export async function readVerified(context: SourceContext): Promise<SourceRead> {
  const service = context.options.verified;
  if (service === undefined) return { candidates: [], skipped: [] };
  const recalled = await service.recall(context.repo, {
    limit: context.limit,
    ...(context.options.commit === undefined ? {} : { ref: context.options.commit }),
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
      score: relevance(`${memory.subject}\n${memory.fact}\n${memory.scope ?? ''}`, context.terms),
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
    base: 0,
    relevanceWeight: 1,
    updatedMs: Date.parse(knowledge.updated_at),
    line: `- **${oneLine(value.subject, 200)}**${scope}: ${oneLine(value.fact, 800)}`,
    entry: { source: 'knowledge', value },
  };
});

/** Repository knowledge (learnings and self-feedback): active records, scored by relevance. */
export async function readKnowledge(context: SourceContext): Promise<SourceRead> {
  return collect(await searchAndRecent(context, 'knowledge', 20), knowledgeCandidate, context);
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
  const bonus =
    data.outcome === 'positive' ? OUTCOME_SCORE_BONUS : data.outcome === 'negative' ? -OUTCOME_SCORE_BONUS : 0;
  return {
    source: 'episodes',
    id: episode.id,
    revision: episode.revision,
    base: bonus,
    relevanceWeight: 1,
    updatedMs: Date.parse(episode.updated_at),
    line: oneLine(`- Task ${episode.id} (${outcomeText(value)}): ${parts.join(' ') || 'no summary'}`, MAX_EPISODE_LINE),
    entry: { source: 'episodes', value },
  };
});

/** Similar past tasks: episodes by relevance, plus the outcome bonus (merged up, closed down). */
export async function readEpisodes(context: SourceContext): Promise<SourceRead> {
  const records = await searchAndRecent(context, 'episode', 10);
  return collect(records, episodeCandidate, context, context.options.task.id);
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
    base: 0,
    relevanceWeight: 1,
    updatedMs: Date.parse(preference.updated_at),
    line: `- ${oneLine(value.preference, 500)}`,
    entry: { source: 'preferences', value },
  };
});

/** The submitting user's preferences, scored by relevance. */
export async function readPreferences(context: SourceContext): Promise<SourceRead> {
  const user = context.options.task.user;
  if (user === undefined) return { candidates: [], skipped: [] };
  const records = await context.backend.list({
    repo: context.repo,
    kind: 'preference',
    idPrefix: preferencePrefix(user),
    signal: context.signal,
  });
  return collect(records, preferenceCandidate, context);
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
