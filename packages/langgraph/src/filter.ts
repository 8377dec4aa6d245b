// Why: LangGraph's `search` narrows items with a `filter` before ranking and paging, and an
// application written against its `InMemoryStore` must get the same items here. This is that
// documented rule, written once: every top-level field of the filter must hold for the item's
// value; a plain value compares with `===`; an object of `$` operators applies each of them
// (`$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte` comparing as numbers, `$in`, `$nin`; an unknown
// operator makes the condition a plain value, which never equals).

const OPERATORS: ReadonlySet<string> = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']);

/**
 * An object whose keys are all operators (`{ $gt: 3 }`). As in `InMemoryStore`, an object without
 * keys (`{}`, `[]`) counts as one with no conditions, so it holds for every item.
 */
function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.keys(value).every((key) => OPERATORS.has(key));
}

function holds(operator: string, actual: unknown, expected: unknown): boolean {
  switch (operator) {
    case '$eq':
      return actual === expected;
    case '$ne':
      return actual !== expected;
    case '$gt':
      return Number(actual) > Number(expected);
    case '$gte':
      return Number(actual) >= Number(expected);
    case '$lt':
      return Number(actual) < Number(expected);
    case '$lte':
      return Number(actual) <= Number(expected);
    case '$in':
      return Array.isArray(expected) && expected.includes(actual);
    case '$nin':
      return !Array.isArray(expected) || !expected.includes(actual);
    default:
      return false;
  }
}

/** True when `value` satisfies every condition of `filter` (LangGraph's filter semantics). */
export function matchesFilter(
  value: Readonly<Record<string, unknown>>,
  filter: Readonly<Record<string, unknown>>,
): boolean {
  return Object.entries(filter).every(([field, condition]) => {
    const actual = value[field];
    if (isOperatorObject(condition)) {
      return Object.entries(condition).every(([operator, expected]) => holds(operator, actual, expected));
    }
    return actual === condition;
  });
}
