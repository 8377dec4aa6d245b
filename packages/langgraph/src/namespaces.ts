// Why: `listNamespaces` explores how items are organised. repomem keeps no namespace records:
// the namespaces are the folders that hold at least one item, read from one listing of the
// items folder, then narrowed, cut and paged exactly as LangGraph documents it (prefix and
// suffix conditions with `*` wildcards, `maxDepth`, sorted, `offset` and `limit`).
import type { MatchCondition } from '@langchain/langgraph-checkpoint';

function matches(condition: MatchCondition, namespace: readonly string[]): boolean {
  const { path } = condition;
  if (path.length > namespace.length) return false;
  const start = condition.matchType === 'suffix' ? namespace.length - path.length : 0;
  return path.every((label, index) => label === '*' || namespace[start + index] === label);
}

/** Sort key of a namespace (LangGraph's in-memory store sorts labels joined with `:`). */
const sortKey = (namespace: readonly string[]): string => namespace.join(':');

/** The answer of a list-namespaces operation over the namespaces that hold items. */
export function selectNamespaces(
  namespaces: Iterable<readonly string[]>,
  operation: {
    readonly matchConditions?: readonly MatchCondition[] | undefined;
    readonly maxDepth?: number | undefined;
    readonly limit?: number | undefined;
    readonly offset?: number | undefined;
  },
): string[][] {
  const conditions = operation.matchConditions ?? [];
  const selected = new Map<string, string[]>();
  for (const namespace of namespaces) {
    if (!conditions.every((condition) => matches(condition, namespace))) continue;
    const cut = operation.maxDepth === undefined ? [...namespace] : namespace.slice(0, operation.maxDepth);
    selected.set(JSON.stringify(cut), cut);
  }
  const sorted = [...selected.values()].sort((a, b) => sortKey(a).localeCompare(sortKey(b)));
  const offset = operation.offset ?? 0;
  return sorted.slice(offset, operation.limit === undefined ? undefined : offset + operation.limit);
}
