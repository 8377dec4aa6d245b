// Why: a search relevance set over the real Sepo memory tree (../shared/fixtures/sepo-memory-tree,
// read in place, never copied into the project): questions an agent asks while working on Sepo,
// in its own words (paraphrases, inflected forms, a closed pull request's follow-up), each with
// the documents that answer it. `heldOut` queries are never looked at while tuning. Relevance was
// judged on pooled results (the top 5 of lexical and of hybrid search, read and judged by hand,
// both parts: pooling completes the judgments, it tunes nothing). Used by the `relevance` bench
// suite only when the tree is present.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Queries: { query, relevant: [paths], heldOut? }. */
export const SEARCH_QUERIES = [
  {
    query: 'make long running agent jobs stop after a time limit',
    relevant: ['github/pull-100.json', 'github/issue-72.json', 'github/issue-99.json'],
  },
  {
    query: 'collapse older review comments when a new review is posted',
    relevant: [
      'github/issue-67.json',
      'github/pull-163.json',
      'github/issue-5.json',
      'github/pull-11.json',
      'github/pull-57.json',
      'github/issue-38.json',
      'github/issue-65.json',
    ],
  },
  {
    query: 'which license does the repository use',
    relevant: [
      'github/issue-109.json',
      'github/pull-110.json',
      'PROJECT.md',
      'daily/2026-05-03.md',
      'LICENSE.upstream',
    ],
  },
  {
    query: 'stacking implementation pull requests on top of each other',
    relevant: [
      'github/pull-56.json',
      'github/issue-92.json',
      'github/pull-97.json',
      'github/pull-123.json',
      'github/issue-96.json',
    ],
  },
  {
    query: 'bootstrap the GitHub App when it gets installed',
    relevant: ['github/pull-120.json', 'github/issue-119.json', 'github/discussion-154.json'],
  },
  {
    query: 'skip the daily summary when discussions are disabled',
    relevant: ['github/issue-14.json', 'github/pull-54.json', 'daily/2026-04-30.md'],
  },
  {
    query: 'versioning metadata so the runtime knows which Sepo it is',
    relevant: [
      'github/pull-128.json',
      'github/pull-130.json',
      'github/pull-133.json',
      'github/issue-127.json',
      'github/issue-132.json',
      'github/issue-74.json',
      'MEMORY.md',
    ],
  },
  {
    query: 'report failing agent runs automatically',
    relevant: ['github/pull-117.json', 'github/issue-26.json', 'github/pull-158.json', 'github/issue-156.json'],
  },
  { query: 'codex reviewer hangs and blocks the synthesis step', relevant: ['github/issue-70.json'] },
  { query: 'claude lane fails with auto permission mode', relevant: ['github/issue-69.json', 'github/pull-71.json'] },
  {
    query: 'let outside contributors trigger the agent',
    relevant: ['github/pull-18.json', 'github/issue-31.json', 'github/pull-13.json', 'github/pull-6.json', 'MEMORY.md'],
  },
  {
    query: 'delegate child issues to sub-orchestrators',
    relevant: [
      'github/pull-77.json',
      'github/pull-81.json',
      'github/pull-82.json',
      'github/pull-85.json',
      'github/pull-66.json',
      'github/pull-114.json',
      'MEMORY.md',
      'github/pull-61.json',
      'github/issue-51.json',
    ],
  },
  {
    query: 'planning work with a GitHub Project board',
    relevant: [
      'github/pull-141.json',
      'github/pull-143.json',
      'github/issue-140.json',
      'github/issue-142.json',
      'github/issue-126.json',
    ],
  },
  {
    query: 'agent approving its own pull requests',
    relevant: ['github/pull-166.json', 'github/discussion-153.json', 'github/issue-165.json'],
  },
  {
    query: 'setup that plans first and then applies the changes',
    relevant: ['github/pull-147.json', 'github/pull-149.json', 'github/issue-146.json', 'github/issue-148.json'],
  },
  {
    query: 'orchestrate a follow-up patch for a PR that was closed',
    relevant: ['github/issue-43.json', 'github/pull-45.json'],
  },
  {
    query: 'check for new Sepo releases on a schedule',
    relevant: ['github/pull-116.json', 'github/pull-115.json', 'github/issue-27.json', 'github/issue-94.json'],
  },
  {
    query: 'improving the onboarding docs for new users',
    relevant: ['github/pull-1.json', 'github/pull-62.json', 'github/issue-23.json'],
  },
  { query: 'flaky GitHub-hosted runners', relevant: ['github/pull-21.json'] },
  {
    query: 'answer route should only plan',
    relevant: ['github/pull-16.json', 'github/issue-105.json', 'github/issue-10.json'],
  },
  { query: 'rubrics for memory curation', relevant: ['github/issue-2.json'] },
  {
    query: 'show a label while the agent is working',
    relevant: ['github/pull-134.json', 'github/issue-25.json', 'github/pull-7.json'],
  },
  {
    query: 'assigning accepted work to the agent handle',
    relevant: ['github/pull-136.json', 'github/issue-135.json', 'github/issue-24.json', 'github/issue-126.json'],
  },
  {
    query: 'yolo mode without approvals',
    relevant: ['github/discussion-153.json', 'github/issue-165.json', 'github/pull-166.json'],
  },
  // Held out: never read while tuning.
  {
    query: 'orchestrated fix-pr failures should stop visibly',
    relevant: ['github/pull-91.json', 'github/issue-79.json', 'MEMORY.md'],
    heldOut: true,
  },
  {
    query: 'remove trailing whitespace from agent files',
    relevant: ['github/pull-37.json', 'daily/2026-04-29.md'],
    heldOut: true,
  },
  { query: 'which identity commits when the agent deploys', relevant: ['github/pull-40.json'], heldOut: true },
  {
    query: 'merging gitignore entries when updating the agent',
    relevant: ['github/pull-55.json', 'daily/2026-04-30.md', 'MEMORY.md', 'github/issue-28.json'],
    heldOut: true,
  },
  {
    query: 'format sub-orchestrator updates as compact tables',
    relevant: ['github/pull-108.json', 'github/issue-90.json', 'MEMORY.md'],
    heldOut: true,
  },
  {
    query: 'keep the handoff context when a fix-pr run resumes',
    relevant: ['github/pull-89.json', 'github/issue-84.json', 'daily/2026-05-02.md', 'MEMORY.md'],
    heldOut: true,
  },
  {
    query: 'issue template for installing sepo',
    relevant: ['github/pull-145.json', 'github/issue-144.json', 'github/issue-126.json'],
    heldOut: true,
  },
  {
    query: 'diagnose agent failures after a human approves',
    relevant: ['github/pull-158.json', 'github/issue-156.json', 'MEMORY.md'],
    heldOut: true,
  },
  { query: 'a route for adding rubrics', relevant: ['github/issue-9.json', 'github/pull-15.json'], heldOut: true },
  {
    query: 'tag the agent when the orchestrated fix is done',
    relevant: ['github/pull-52.json', 'github/issue-47.json'],
    heldOut: true,
  },
  { query: 'ideas for how the agent could improve itself', relevant: ['github/discussion-160.json'], heldOut: true },
  {
    query: 'default values of automation mode and project labels',
    relevant: ['github/pull-157.json', 'github/issue-155.json', 'github/issue-125.json'],
    heldOut: true,
  },
];

/** Files of `root` as `{ path, content }` (POSIX paths), skipping dot folders. */
export function readTree(root) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.')) continue;
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.push({ path: relative(root, full).split(sep).join('/'), content: readFileSync(full) });
    }
  };
  walk(root);
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** MRR@5 and recall@5 (share of relevant documents in the top 5, out of at most 5) of ranked paths. */
export function scoreRanking(ranked, relevant) {
  const top = ranked.slice(0, 5);
  const first = top.findIndex((path) => relevant.includes(path));
  const found = top.filter((path) => relevant.includes(path)).length;
  return { rr: first < 0 ? 0 : 1 / (first + 1), recall: found / Math.min(5, relevant.length) };
}

/**
 * Run every query through `search(query) -> ranked paths` and report MRR@5 and recall@5 for the
 * tuning and held-out parts.
 */
export async function evaluateSearch(search) {
  const parts = { tuning: [], heldOut: [] };
  for (const item of SEARCH_QUERIES) {
    const ranked = await search(item.query);
    parts[item.heldOut ? 'heldOut' : 'tuning'].push({ query: item.query, ...scoreRanking(ranked, item.relevant) });
  }
  const summary = (list) => ({
    queries: list.length,
    mrr: list.reduce((sum, entry) => sum + entry.rr, 0) / list.length,
    recall: list.reduce((sum, entry) => sum + entry.recall, 0) / list.length,
    perQuery: list,
  });
  return { tuning: summary(parts.tuning), heldOut: summary(parts.heldOut) };
}
