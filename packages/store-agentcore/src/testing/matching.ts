// Why: the read semantics that bite the adapter: `namespace` matches exactly while
// `namespacePath` matches every namespace starting with that string, metadata filters with the
// model's operators, and a word-overlap relevance score standing in for the service's semantic
// search, all as pure functions the record handlers share.
import type {
  EventMetadataFilterWire,
  EventMetadataValue,
  RecordMetadataFilterWire,
  RecordMetadataValue,
} from './wire-types.js';

/** Namespace scope of a list or retrieve request: exactly one of the two is set. */
export type NamespaceScope =
  | { readonly kind: 'exact'; readonly namespace: string }
  | { readonly kind: 'path'; readonly namespacePath: string };

/** True when one of `namespaces` is in scope (exact equality, or string prefix for a path). */
export function inNamespaceScope(namespaces: readonly string[], scope: NamespaceScope): boolean {
  return scope.kind === 'exact'
    ? namespaces.includes(scope.namespace)
    : namespaces.some((namespace) => namespace.startsWith(scope.namespacePath));
}

/** True when event metadata satisfies every filter (EQUALS_TO, EXISTS, NOT_EXISTS). */
export function eventMetadataMatches(
  metadata: Readonly<Record<string, EventMetadataValue>> | undefined,
  filters: readonly EventMetadataFilterWire[],
): boolean {
  return filters.every((filter) => {
    const key = filter.left.metadataKey ?? '';
    const value = metadata?.[key];
    switch (filter.operator) {
      case 'EXISTS':
        return value !== undefined;
      case 'NOT_EXISTS':
        return value === undefined;
      case 'EQUALS_TO':
        return value !== undefined && value.stringValue === filter.right?.metadataValue?.stringValue;
    }
    return false;
  });
}

function sameList(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  return a !== undefined && b !== undefined && a.length === b.length && a.every((item, index) => item === b[index]);
}

function valuesEqual(left: RecordMetadataValue, right: RecordMetadataValue): boolean {
  if (right.stringValue !== undefined) return left.stringValue === right.stringValue;
  if (right.numberValue !== undefined) return left.numberValue === right.numberValue;
  if (right.dateTimeValue !== undefined) return left.dateTimeValue === right.dateTimeValue;
  return sameList(left.stringListValue, right.stringListValue);
}

function recordFilterHolds(value: RecordMetadataValue | undefined, filter: RecordMetadataFilterWire): boolean {
  if (filter.operator === 'EXISTS') return value !== undefined;
  if (filter.operator === 'NOT_EXISTS') return value === undefined;
  const right = filter.right?.metadataValue;
  if (value === undefined || right === undefined) return false;
  switch (filter.operator) {
    case 'EQUALS_TO':
      return valuesEqual(value, right);
    case 'CONTAINS': {
      const needle = right.stringValue ?? right.stringListValue?.[0];
      if (needle === undefined) return false;
      if (value.stringListValue !== undefined) return value.stringListValue.includes(needle);
      return value.stringValue?.includes(needle) === true;
    }
    case 'BEFORE':
      return (
        value.dateTimeValue !== undefined &&
        right.dateTimeValue !== undefined &&
        value.dateTimeValue < right.dateTimeValue
      );
    case 'AFTER':
      return (
        value.dateTimeValue !== undefined &&
        right.dateTimeValue !== undefined &&
        value.dateTimeValue > right.dateTimeValue
      );
    case 'GREATER_THAN':
      return (
        value.numberValue !== undefined && right.numberValue !== undefined && value.numberValue > right.numberValue
      );
    case 'GREATER_THAN_OR_EQUALS':
      return (
        value.numberValue !== undefined && right.numberValue !== undefined && value.numberValue >= right.numberValue
      );
    case 'LESS_THAN':
      return (
        value.numberValue !== undefined && right.numberValue !== undefined && value.numberValue < right.numberValue
      );
    case 'LESS_THAN_OR_EQUALS':
      return (
        value.numberValue !== undefined && right.numberValue !== undefined && value.numberValue <= right.numberValue
      );
  }
  return false;
}

/** True when record metadata satisfies every filter. */
export function recordMetadataMatches(
  metadata: Readonly<Record<string, RecordMetadataValue>> | undefined,
  filters: readonly RecordMetadataFilterWire[],
): boolean {
  return filters.every((filter) => recordFilterHolds(metadata?.[filter.left.metadataKey ?? ''], filter));
}

/** Operators that compare against a right-hand value (all but EXISTS / NOT_EXISTS). */
export function filterNeedsRight(operator: string): boolean {
  return operator !== 'EXISTS' && operator !== 'NOT_EXISTS';
}

const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
]);

function terms(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((term) => term.length > 0 && !STOP_WORDS.has(term)),
  );
}

/**
 * Relevance of `text` to `query` in (0, 1], or 0 when no query word occurs: the fraction of
 * distinct query words present, slightly favouring shorter texts on ties. A stand-in for the
 * service's semantic search (which ranks by embeddings), enough to test scoping and ranking.
 */
export function relevance(query: string, text: string): number {
  const wanted = terms(query);
  if (wanted.size === 0) return 0;
  const present = terms(text);
  let hits = 0;
  for (const term of wanted) if (present.has(term)) hits += 1;
  if (hits === 0) return 0;
  const coverage = hits / wanted.size;
  const focus = hits / Math.max(present.size, hits);
  return Math.round((0.9 * coverage + 0.1 * focus) * 1e6) / 1e6;
}
