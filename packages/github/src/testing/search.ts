// Why: `search(type: ISSUE, query: "repo:o/n is:pr updated:>=...")` is how many GitHub clients
// (and `gh issue list --search`) find what changed, since pull requests have no `since` filter.
// The qualifiers a sync uses are parsed as GitHub documents them, results are sorted and capped at
// 1,000 like GitHub's search, and `issueCount` reports every match.
import { GraphQLError } from 'graphql';
import type { GitHubDataSet, GitHubItemData } from './data-set.js';
import type { GitHubRepositoryData } from './model.js';

/** GitHub's cap on the results one search can page through. */
export const SEARCH_RESULT_CAP = 1000;

/** One search hit: the item and its repository. */
export interface SearchHit {
  readonly repo: GitHubRepositoryData;
  readonly item: GitHubItemData;
}

interface Range {
  readonly after?: number;
  readonly afterInclusive?: boolean;
  readonly before?: number;
  readonly beforeInclusive?: boolean;
}

/** Items of `data` matching a GitHub search query of `type` (ISSUE, ISSUE_ADVANCED or DISCUSSION), sorted as asked. */
export function searchItems(
  data: GitHubDataSet,
  type: string,
  query: string,
  visible: (repo: GitHubRepositoryData, kind: 'issue' | 'pullRequest' | 'discussion') => boolean,
): SearchHit[] {
  if (type !== 'ISSUE' && type !== 'ISSUE_ADVANCED' && type !== 'DISCUSSION') {
    throw new GraphQLError(`The loopback GitHub API does not search ${type} yet.`, {
      extensions: { type: 'LOOPBACK_UNSUPPORTED' },
    });
  }
  const repos: string[] = [];
  const kinds = new Set<string>();
  const states = new Set<string>();
  const labels: string[] = [];
  const authors: string[] = [];
  const words: string[] = [];
  let updated: Range = {};
  let created: Range = {};
  let sort = 'updated-desc';
  for (const token of query.match(/(?:[^\s"]+|"[^"]*")+/g) ?? []) {
    const [qualifier, ...rest] = token.split(':');
    const value = rest.join(':').replace(/^"|"$/g, '');
    switch (rest.length === 0 ? '' : qualifier?.toLowerCase()) {
      case 'repo':
        repos.push(value.toLowerCase());
        break;
      case 'is':
      case 'type':
      case 'state':
        if (['issue', 'pr', 'pull-request'].includes(value)) kinds.add(value === 'issue' ? 'issue' : 'pr');
        else states.add(value.toLowerCase());
        break;
      case 'label':
        labels.push(value.toLowerCase());
        break;
      case 'author':
        authors.push(value.toLowerCase());
        break;
      case 'updated':
        updated = range(value);
        break;
      case 'created':
        created = range(value);
        break;
      case 'sort':
        sort = value.toLowerCase();
        break;
      default:
        words.push(token.replace(/^"|"$/g, '').toLowerCase());
    }
  }
  const hits: SearchHit[] = [];
  for (const repo of data.repositories()) {
    if (repos.length > 0 && !repos.includes(`${repo.owner}/${repo.name}`.toLowerCase())) continue;
    const candidates: (readonly [GitHubItemData, 'issue' | 'pullRequest' | 'discussion'])[] =
      type === 'DISCUSSION'
        ? repo.hasDiscussionsEnabled
          ? repo.discussions.map((item) => [item, 'discussion'] as const)
          : []
        : [
            ...(kinds.size === 0 || kinds.has('issue') ? repo.issues.map((item) => [item, 'issue'] as const) : []),
            ...(kinds.size === 0 || kinds.has('pr')
              ? repo.pullRequests.map((item) => [item, 'pullRequest'] as const)
              : []),
          ];
    for (const [item, kind] of candidates) {
      if (!visible(repo, kind)) continue;
      if (!matchesState(item, states)) continue;
      if (!inRange(item.updatedAt, updated) || !inRange(item.createdAt, created)) continue;
      if (authors.length > 0 && !authors.includes((item.author ?? '').toLowerCase())) continue;
      if (labels.some((label) => !item.labels.some((name) => name.toLowerCase() === label))) continue;
      const text = `${item.title}\n${item.body}`.toLowerCase();
      if (words.some((word) => !text.includes(word))) continue;
      hits.push({ repo, item });
    }
  }
  const [field, direction] = sort.split('-');
  const sign = direction === 'asc' ? 1 : -1;
  const at = (hit: SearchHit) => (field === 'created' ? hit.item.createdAt : hit.item.updatedAt);
  return hits.sort((a, b) => sign * (at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : a.item.number - b.item.number));
}

function matchesState(item: GitHubItemData, states: ReadonlySet<string>): boolean {
  if (states.size === 0) return true;
  const state = 'closed' in item ? (item.closed ? 'closed' : 'open') : item.state.toLowerCase();
  return [...states].every((wanted) => {
    if (wanted === 'open') return state === 'open';
    if (wanted === 'closed') return state === 'closed' || state === 'merged';
    if (wanted === 'merged') return state === 'merged';
    if (wanted === 'unmerged') return state === 'closed';
    return true;
  });
}

/** GitHub's date qualifiers: `>=D`, `>D`, `<=D`, `<D`, `D..D`, `D..*`, `*..D`, or a bare day. */
function range(value: string): Range {
  const time = (text: string): number => {
    const parsed = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
    if (Number.isNaN(parsed)) {
      throw new GraphQLError(
        `The date "${text}" in the search query is not a valid date (use 2026-05-02 or 2026-05-02T17:45:06Z).`,
        {
          extensions: { type: 'INVALID_SEARCH_QUERY' },
        },
      );
    }
    return parsed;
  };
  const between = /^(.+)\.\.(.+)$/.exec(value);
  if (between !== null) {
    const [, from = '*', to = '*'] = between;
    return {
      ...(from === '*' ? {} : { after: time(from), afterInclusive: true }),
      ...(to === '*' ? {} : { before: time(to), beforeInclusive: true }),
    };
  }
  const compare = /^(>=|>|<=|<)(.+)$/.exec(value);
  if (compare !== null) {
    const [, operator, date = ''] = compare;
    if (operator === '>=') return { after: time(date), afterInclusive: true };
    if (operator === '>') return { after: time(date), afterInclusive: false };
    if (operator === '<=') return { before: time(date), beforeInclusive: true };
    return { before: time(date), beforeInclusive: false };
  }
  const day = time(value);
  return { after: day, afterInclusive: true, before: day + 86_399_000, beforeInclusive: true };
}

function inRange(timestamp: string, bounds: Range): boolean {
  const at = Date.parse(timestamp);
  if (bounds.after !== undefined && (bounds.afterInclusive ? at < bounds.after : at <= bounds.after)) return false;
  if (bounds.before !== undefined && (bounds.beforeInclusive ? at > bounds.before : at >= bounds.before)) return false;
  return true;
}
