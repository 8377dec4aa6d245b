// Why: hydration shares one budget across kinds (knowledge, verified memories, episodes,
// preferences), so their scores must be on one scale and mean the same thing: how well the item
// answers this task. Scored here, once, over every candidate together: BM25 over the candidate
// pool (rare words of the task weigh more than common ones, long episodes do not win by length),
// the files the task names matched against scopes, and, when a semantic index is given, the
// model's similarity calibrated against the pool and added to it. The relevance floor is
// decided here too: an item that matches nothing is marked, so it can never take room from a
// relevant item of another kind.
import { LRUCache } from 'lru-cache';
import { stemWord } from '../../search/stemming.js';
import { splitWords } from '../../search/tokenizer.js';

/** BM25 term-frequency saturation. */
const K1 = 1.2;
/** BM25 length normalisation. */
const B = 0.75;
/**
 * Share of the best lexical score an item needs to count as relevant on words alone: a match on
 * one common word of a long task is noise. Tuned on the tuning part of bench/relevance.
 */
export const LEXICAL_RELEVANCE_FLOOR = 0.12;
/**
 * Place between the candidates' median cosine and the best one (0-1) an item needs to count as
 * relevant on meaning alone (a paraphrase that shares no word). Tuned on the tuning part of
 * bench/relevance with the local model.
 */
export const SEMANTIC_RELEVANCE_FLOOR = 0.35;
/**
 * Weight of the semantic share added to the lexical share. A calibrated sum rather than rank
 * fusion: hydration fills a small budget from a pool of every memory, and reciprocal rank fusion
 * over such a pool lifted items ranked middling by both rankers above items one ranker was sure
 * of (recall at 600 tokens 0.65 with fusion, 0.78 with this sum, on the tuning part).
 */
export const SEMANTIC_WEIGHT = 0.4;
/** Added to the (0-1) score of an item whose scope holds a file the task names, or lies inside one. */
export const SCOPE_MATCH_BONUS = 0.5;

/** An item to score: a key, its searchable text and optionally the scope it applies to. */
export interface RelevanceItem {
  readonly key: string;
  readonly text: string;
  /** Directory, module or file pattern the item applies to (knowledge, verified memories, rules). */
  readonly scope?: string | null;
}

/** What scores hydration candidates by meaning: a `SemanticIndex` satisfies it. */
export interface SemanticScorer {
  /** Cosine similarity of the query to each item's text, by item id. */
  scoreTexts(
    query: string,
    items: ReadonlyArray<{ readonly id: string; readonly text: string }>,
    options?: { readonly signal?: AbortSignal },
  ): Promise<Map<string, number>>;
}

/** The task as relevance sees it. */
export interface RelevanceQuery {
  /** The task description (what a semantic scorer embeds). */
  readonly text: string;
  /** Analysed words of the task, without common English words. */
  readonly terms: readonly string[];
  /** Paths the task names (from its text and `task.files`), normalised. */
  readonly paths: readonly string[];
}

/** Score of one item. */
export interface RelevanceScore {
  /** Final score in [0, 1 + bonus]: the items' order. */
  readonly score: number;
  /** BM25 share of the pool's best lexical score (0-1). */
  readonly lexical: number;
  /** Cosine similarity when a semantic scorer was used. */
  readonly semantic?: number;
  /** True when the item clears the relevance floor (on words, meaning or scope). */
  readonly relevant: boolean;
}

/** Words of a text as relevance compares them (one place, so a stemmer changes both sides). */
export function relevanceWords(text: string): string[] {
  return splitWords(text).map(normalizeWord);
}

/**
 * One word as relevance compares it: its Porter stem (core's search analysis, `stemWord`), so
 * inflected forms meet (`caches`, `caching`, `cached`; `migrated`, `migration`).
 */
export function normalizeWord(word: string): string {
  return stemWord(word);
}

const PATH_PATTERN = /(?:[\w@.-]+\/)+[\w@.*-]*|[\w-]+\.(?:[cm]?[jt]sx?|json|ya?ml|md|css|scss|sql|py|go|rs|sh|toml)\b/g;

/** Normalise a path or scope for prefix comparison: no leading `./` or `/`, no glob tail, no trailing `/`. */
export function normalizeScope(scope: string): string {
  return scope
    .trim()
    .replace(/^\.?\//, '')
    .replace(/\*.*$/, '')
    .replace(/\/+$/, '')
    .toLowerCase();
}

/** Paths named in `text` (`packages/billing/src/invoice.ts`, `src/auth/`, `vite.config.ts`). */
export function namedPaths(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(PATH_PATTERN)) {
    const path = normalizeScope(match[0]);
    if (path.length >= 3 && !/^https?:/.test(path)) found.add(path);
  }
  return [...found];
}

/** Words every path holds (`packages/x/src/y.ts`): they say nothing about what a task is about. */
const PATH_WORDS = new Set([
  'packages',
  'package',
  'src',
  'lib',
  'dist',
  'ts',
  'tsx',
  'js',
  'jsx',
  'mjs',
  'cjs',
  'index',
]);

/** Words of identifiers split at case changes (`useAuthSession` -> use, auth, session). */
function identifierParts(text: string): string[] {
  const parts: string[] = [];
  for (const identifier of text.match(/\b[a-z]+(?:[A-Z][a-z0-9]+)+\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b/g) ?? []) {
    parts.push(...identifier.split(/(?=[A-Z])/).map((part) => part.toLowerCase()));
  }
  return parts;
}

/**
 * The relevance query of a task: its analysed words (common English words left out, identifiers
 * also split at case changes), and the paths it names plus `files`.
 */
export function relevanceQuery(
  description: string,
  stopWords: ReadonlySet<string>,
  files: readonly string[] = [],
): RelevanceQuery {
  const text = description.slice(0, 8000);
  const words = [...splitWords(text), ...identifierParts(text), ...files.flatMap((file) => splitWords(file))];
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const word of words) {
    if (word.length < 2 || stopWords.has(word) || PATH_WORDS.has(word)) continue;
    const term = normalizeWord(word);
    if (seen.has(term)) continue;
    seen.add(term);
    terms.push(term);
  }
  const paths = [...new Set([...namedPaths(text), ...files.map(normalizeScope).filter((path) => path !== '')])];
  return { text, terms: terms.slice(0, 64), paths };
}

/** Analysed texts, shared by every hydration of the process (a record's text rarely changes). */
const ANALYSES = new LRUCache<string, { readonly counts: ReadonlyMap<string, number>; readonly length: number }>({
  max: 20_000,
});

function analyze(text: string): { readonly counts: ReadonlyMap<string, number>; readonly length: number } {
  let analysis = ANALYSES.get(text);
  if (analysis === undefined) {
    const counts = new Map<string, number>();
    const words = relevanceWords(text);
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    analysis = { counts, length: words.length };
    ANALYSES.set(text, analysis);
  }
  return analysis;
}

function scopeMatches(scope: string | null | undefined, paths: readonly string[]): boolean {
  if (scope === null || scope === undefined || paths.length === 0) return false;
  const normalized = normalizeScope(scope);
  if (normalized.length < 2) return false;
  return paths.some(
    (path) => path === normalized || path.startsWith(`${normalized}/`) || normalized.startsWith(`${path}/`),
  );
}

/**
 * BM25 of each item against the query's terms, with IDF over the items themselves, as a share
 * of the best item's score (0-1; every item 0 when none matches).
 */
export function lexicalScores(query: RelevanceQuery, items: readonly RelevanceItem[]): Map<string, number> {
  const scores = new Map<string, number>();
  if (items.length === 0) return scores;
  const analyses = items.map((item) => analyze(item.text));
  const averageLength = Math.max(1, analyses.reduce((sum, analysis) => sum + analysis.length, 0) / analyses.length);
  const documentFrequency = new Map<string, number>();
  for (const term of query.terms) documentFrequency.set(term, 0);
  for (const analysis of analyses) {
    for (const term of query.terms)
      if (analysis.counts.has(term)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const count = items.length;
  let best = 0;
  const raw = analyses.map((analysis) => {
    let score = 0;
    const norm = K1 * (1 - B + (B * analysis.length) / averageLength);
    for (const term of query.terms) {
      const tf = analysis.counts.get(term);
      if (tf === undefined) continue;
      const df = documentFrequency.get(term) ?? 0;
      const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
      score += (idf * tf * (K1 + 1)) / (tf + norm);
    }
    best = Math.max(best, score);
    return score;
  });
  items.forEach((item, index) => {
    scores.set(item.key, best === 0 ? 0 : (raw[index] ?? 0) / best);
  });
  return scores;
}

/**
 * Cosines as a share of how far each stands above the pool's median towards the best (0-1): the
 * local model gives unrelated texts cosines around 0.4 and moves them with the query, so raw
 * cosines are not comparable across tasks, their place between the median and the best is.
 */
function semanticShares(items: readonly RelevanceItem[], semantic: ReadonlyMap<string, number>): Map<string, number> {
  const values = items.map((item) => semantic.get(item.key) ?? -1).sort((a, b) => a - b);
  const median = values[Math.floor((values.length - 1) / 2)] ?? 0;
  const best = values[values.length - 1] ?? 0;
  const shares = new Map<string, number>();
  for (const item of items) {
    const cosine = semantic.get(item.key) ?? -1;
    shares.set(item.key, best <= median ? 0 : Math.max(0, (cosine - median) / (best - median)));
  }
  return shares;
}

/** Options of {@link scoreRelevance}. */
export interface ScoreRelevanceOptions {
  /** Semantic scorer whose ranking is fused with the lexical one. */
  readonly semantic?: SemanticScorer;
  readonly signal?: AbortSignal;
}

/**
 * Score `items` for `query`: the lexical share, plus with a semantic scorer
 * {@link SEMANTIC_WEIGHT} times the semantic share (see `semanticShares`). An item is relevant
 * when its lexical share reaches {@link LEXICAL_RELEVANCE_FLOOR}, its semantic share reaches
 * {@link SEMANTIC_RELEVANCE_FLOOR}, or its scope holds a file the task names (which also adds
 * {@link SCOPE_MATCH_BONUS}). A semantic scorer's failure propagates (the caller degrades).
 */
export async function scoreRelevance(
  query: RelevanceQuery,
  items: readonly RelevanceItem[],
  options: ScoreRelevanceOptions = {},
): Promise<Map<string, RelevanceScore>> {
  const lexical = lexicalScores(query, items);
  const semantic =
    options.semantic === undefined || items.length === 0 || query.text.trim() === ''
      ? undefined
      : await options.semantic.scoreTexts(
          query.text,
          items.map((item) => ({ id: item.key, text: item.text })),
          options.signal === undefined ? {} : { signal: options.signal },
        );
  const base = new Map<string, number>();
  const semanticShare = semantic === undefined ? undefined : semanticShares(items, semantic);
  for (const item of items) {
    const share = semanticShare?.get(item.key) ?? 0;
    base.set(item.key, (lexical.get(item.key) ?? 0) + SEMANTIC_WEIGHT * share);
  }
  const scores = new Map<string, RelevanceScore>();
  for (const item of items) {
    const lexicalShare = lexical.get(item.key) ?? 0;
    const cosine = semantic?.get(item.key);
    const scoped = scopeMatches(item.scope, query.paths);
    const share = semanticShare?.get(item.key);
    const relevant =
      scoped || lexicalShare >= LEXICAL_RELEVANCE_FLOOR || (share !== undefined && share >= SEMANTIC_RELEVANCE_FLOOR);
    scores.set(item.key, {
      score: (base.get(item.key) ?? 0) + (scoped ? SCOPE_MATCH_BONUS : 0),
      lexical: lexicalShare,
      ...(cosine === undefined ? {} : { semantic: cosine }),
      relevant,
    });
  }
  return scores;
}
