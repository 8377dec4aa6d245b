// Why: a store's own index (FTS5, tsvector) names candidate documents; turning a query into the
// terms it is asked for, reading the named documents in batches and naming the oversized ones
// are the same whether core then ranks them once (one-shot) or through an engine's index.
import type { MemoryStore, StoredDocument } from '../store/contract.js';
import type { CandidateTerm, SearchCandidates } from '../store/search-contract.js';
import { isOversized, isSearchablePath } from './document-filter.js';
import { type QueryPlan, termNeedle } from './query-plan.js';

/**
 * The candidate terms of a plan, or `undefined` when a term is not a plain word (infix, substring).
 * A term with a stem also asks for the words starting with its needle, which holds every
 * inflection (`polic*` for `policy` finds `policies`): the store's index keeps surface words, and
 * core keeps only the candidates whose words share the stem, so the answer stays complete.
 */
export function candidateTerms(plan: QueryPlan): CandidateTerm[] | undefined {
  const terms: CandidateTerm[] = [];
  for (const term of plan.terms) {
    if (term.kind !== 'word') return undefined;
    if (term.stem === undefined) terms.push({ text: term.text, prefix: term.prefix });
    else if (termNeedle(term) !== term.text) terms.push({ text: termNeedle(term), prefix: true });
  }
  return terms.length === 0 ? undefined : terms;
}

/** Most paths read with one `getMany` call. */
const GET_MANY_BATCH = 500;

/** The documents at `paths`, in order: with `getMany` in batches when the store has it, else one `get` each. */
export async function readDocuments(
  store: MemoryStore,
  paths: readonly string[],
): Promise<(StoredDocument | undefined)[]> {
  const documents: (StoredDocument | undefined)[] = [];
  if (store.getMany === undefined) {
    for (const path of paths) documents.push(await store.get(path));
    return documents;
  }
  for (let start = 0; start < paths.length; start += GET_MANY_BATCH) {
    documents.push(...(await store.getMany(paths.slice(start, start + GET_MANY_BATCH))));
  }
  return documents;
}

/**
 * Documents under `prefix` too large to search, by path (the answer names them, or the store's
 * listing does), as core's own scan reports them in `skipped`.
 */
export async function oversizedInScope(
  store: MemoryStore,
  answer: Extract<SearchCandidates, { status: 'candidates' }>,
  prefix: string,
): Promise<Map<string, number>> {
  const oversized = new Map<string, number>();
  const known = answer.oversized ?? (await store.list(prefix));
  for (const entry of known) {
    if (isOversized(entry.size) && isSearchablePath(entry.path) && entry.path.startsWith(prefix)) {
      oversized.set(entry.path, entry.size);
    }
  }
  return oversized;
}
