// Why: the bullet tools edit MEMORY.md, PROJECT.md and the daily logs with the same operations
// and outcomes as `repomem update`, and search the tree like `repomem search`, through core's
// memory facade (optimistic concurrency: a concurrent writer's change is never lost).
import {
  hybridSearch,
  type Memory,
  type MemoryStore,
  SearchEngine,
  type SearchResponse,
  type SemanticIndex,
  type UpdateOutcome,
  WRITING_OUTCOMES,
} from '@repomem/core';
import { withConflictRetry } from '../conflict-retry.js';
import {
  AddInput,
  DailyAppendInput,
  RemoveInput,
  ReplaceInput,
  SearchInput,
  SearchOutput,
  UpdateOutput,
} from '../schemas/bullets.js';
import { defineTool, type ToolEntry } from './define.js';

function updateOutput(outcome: UpdateOutcome) {
  return { ...outcome, written: WRITING_OUTCOMES.has(outcome.kind) };
}

const OUTCOMES =
  'Results to handle (not errors): "missing_section" (lists the sections that exist), "duplicate_section", "no_match", "ambiguous" (lists the candidates).';

/** The bullet tools over the memory facade. */
export function bulletTools(
  memory: Memory,
  hybrid?: { readonly store: MemoryStore; readonly semantic: SemanticIndex },
): ToolEntry[] {
  // With an embedder, search fuses lexical and semantic rankings (its lexical half warm through
  // one engine, like the facade's); otherwise it is the facade's lexical search.
  const engine = hybrid === undefined ? undefined : new SearchEngine();
  const search = async (query: string, options: { limit?: number; snippets?: number; prefix?: string }) =>
    hybrid === undefined
      ? memory.search(query, options)
      : ((await hybridSearch(hybrid.store, query, {
          ...options,
          engine,
          semantic: hybrid.semantic,
        })) as SearchResponse);
  return [
    defineTool({
      name: 'memory.add',
      title: 'Add a bullet',
      description: `Add a bullet to a section of MEMORY.md or PROJECT.md ("added", or "duplicate" when it is already there). ${OUTCOMES}`,
      input: AddInput,
      output: UpdateOutput,
      writes: true,
      idempotent: true,
      run: async (input) => updateOutput(await withConflictRetry(() => memory.add(input))),
    }),
    defineTool({
      name: 'memory.replace',
      title: 'Replace a bullet',
      description: `Rewrite the one bullet of a section matching "match" to "with" ("replaced", "collapsed" when "with" already existed, "duplicate" when nothing changes). ${OUTCOMES}`,
      input: ReplaceInput,
      output: UpdateOutput,
      writes: true,
      destructive: true,
      idempotent: true,
      run: async (input) => updateOutput(await withConflictRetry(() => memory.replace(input))),
    }),
    defineTool({
      name: 'memory.remove',
      title: 'Remove a bullet',
      description: `Remove the one bullet of a section matching "match" ("removed"). ${OUTCOMES}`,
      input: RemoveInput,
      output: UpdateOutput,
      writes: true,
      destructive: true,
      idempotent: true,
      run: async (input) => updateOutput(await withConflictRetry(() => memory.remove(input))),
    }),
    defineTool({
      name: 'memory.daily_append',
      title: 'Append to the daily log',
      description:
        'Append an entry to daily/<date>.md (today in UTC by default), creating the log when missing ("added", or "duplicate").',
      input: DailyAppendInput,
      output: UpdateOutput,
      writes: true,
      idempotent: true,
      run: async (input) => updateOutput(await withConflictRetry(() => memory.dailyAppend(input))),
    }),
    defineTool({
      name: 'memory.search',
      title: 'Search the memory tree',
      description:
        'Search MEMORY.md, PROJECT.md, the daily logs and the mirror files for words; the best documents first, with matching lines.',
      input: SearchInput,
      output: SearchOutput,
      writes: false,
      idempotent: true,
      async run({ query, ...options }) {
        const response = await search(query, options);
        return {
          query: response.query,
          terms: [...response.terms],
          documentCount: response.documentCount,
          results: response.results.map((hit) => ({
            path: hit.path,
            score: hit.score,
            matchCount: hit.matchCount,
            matchedTerms: [...hit.matchedTerms],
            snippets: [...hit.snippets],
          })),
          ...(response.skipped === undefined ? {} : { skipped: [...response.skipped] }),
        };
      },
    }),
  ];
}
