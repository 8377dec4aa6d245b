// Why: realistic agent queries per tree, fixed so runs are comparable. Fixture queries use the
// vocabulary of the Sepo repository's own issues and PRs; generated-tree queries mix common,
// rare and multi-word terms of the corpus generator's vocabulary.

/** Queries over the real Sepo fixture tree. */
export const FIXTURE_QUERIES = [
  'memory branch push',
  'rubrics',
  'schedule policy',
  'fork pull request',
  'daily summary',
  'sync cursor',
  'review comment',
  'orchestrator dispatch',
  'exit code',
  'lock timeout',
];

/** Queries over the generated tree. */
export const GENERATED_QUERIES = [
  'thread key',
  'idempotency',
  'merge queue stale review',
  'workflow cache',
  'sync workflow cursor',
  'fts5 sqlite',
  'rate limit retry',
  'quokka',
  'access policy fork',
  'daily summary scheduled runs',
];

/** The queries for a prepared tree. */
export function queriesFor(tree) {
  return tree.name === 'fixture' ? FIXTURE_QUERIES : GENERATED_QUERIES;
}
