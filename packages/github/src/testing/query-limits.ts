// Why: GitHub refuses a query before running it when a connection has no `first`/`last`, asks
// for more than 100 records, or could return more than 500,000 nodes, and it charges each query
// a cost computed in advance from the same arguments. This module computes both from the query
// text exactly as GitHub's documentation describes ("Rate limits and node limits for the GraphQL
// API"), so a sync tested here is refused, and charged, as it would be on GitHub.
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  valueFromAST,
} from 'graphql';

/** GitHub's cap on the nodes one query may request. */
export const MAX_NODES = 500_000;
/** GitHub's cap on `first`/`last`. */
export const MAX_PAGE = 100;

/** What a query would cost and return at most, or why GitHub refuses it. */
export type QueryLimits =
  | {
      readonly kind: 'accepted';
      /** Nodes the query could return (sum over connections of the product of page sizes above). */
      readonly nodeCount: number;
      /** Requests GitHub's formula counts (one per connection per possible parent). */
      readonly requestCount: number;
      /** Rate-limit points: requests / 100, rounded, at least 1. */
      readonly cost: number;
    }
  | { readonly kind: 'refused'; readonly errors: readonly GraphQLError[] };

interface Walk {
  readonly schema: GraphQLSchema;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly variables: Readonly<Record<string, unknown>>;
  nodes: number;
  requests: number;
  readonly errors: GraphQLError[];
}

/** Computes GitHub's node count and cost for the operation, or the errors GitHub answers instead. */
export function queryLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Readonly<Record<string, unknown>>,
): QueryLimits {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
  const walk: Walk = { schema, fragments, variables, nodes: 0, requests: 0, errors: [] };
  if (root) visit(walk, operation.selectionSet, root, 1, new Set());
  if (walk.errors.length > 0) return { kind: 'refused', errors: walk.errors };
  return {
    kind: 'accepted',
    nodeCount: walk.nodes,
    requestCount: walk.requests,
    cost: Math.max(1, Math.round(walk.requests / 100)),
  };
}

function visit(
  walk: Walk,
  selectionSet: SelectionSetNode,
  parentType: GraphQLNamedType,
  multiplier: number,
  spreading: ReadonlySet<string>,
): void {
  for (const selection of selectionSet.selections) {
    if (walk.errors.length > 0) return;
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition ? walk.schema.getType(selection.typeCondition.name.value) : parentType;
      if (type) visit(walk, selection.selectionSet, type, multiplier, spreading);
    } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const name = selection.name.value;
      const fragment = walk.fragments.get(name);
      const type = fragment && walk.schema.getType(fragment.typeCondition.name.value);
      if (fragment && type && !spreading.has(name)) {
        visit(walk, fragment.selectionSet, type, multiplier, new Set([...spreading, name]));
      }
    } else {
      visitField(walk, selection, parentType, multiplier, spreading);
    }
  }
}

function visitField(
  walk: Walk,
  node: FieldNode,
  parentType: GraphQLNamedType,
  multiplier: number,
  spreading: ReadonlySet<string>,
): void {
  if (!isObjectType(parentType) && !isInterfaceType(parentType)) return;
  const field = parentType.getFields()[node.name.value];
  if (field === undefined || node.selectionSet === undefined) return;
  const type = getNamedType(field.type);
  if (!isCompositeType(type)) return;
  let childMultiplier = multiplier;
  if (isConnection(field)) {
    const page = pageSize(walk, node, field);
    if (page === undefined) return;
    // A connection read only for its counts (no first/last) costs nothing: GitHub's formula
    // counts the connections that carry first/last arguments.
    if (page > 0) {
      walk.requests += multiplier;
      walk.nodes += multiplier * page;
      childMultiplier = multiplier * page;
      if (walk.nodes > MAX_NODES) {
        walk.errors.push(
          new GraphQLError(
            `By the time this query traverses to the ${node.name.value} connection, it is requesting up to ${walk.nodes.toLocaleString('en-US')} possible nodes which exceeds the maximum limit of ${MAX_NODES.toLocaleString('en-US')}.`,
            { nodes: node, extensions: { type: 'MAX_NODE_LIMIT_EXCEEDED' } },
          ),
        );
        return;
      }
    }
  } else if (field.name === 'nodes' && parentType === walk.schema.getQueryType()) {
    const ids = argument(walk, node, field, 'ids');
    childMultiplier = multiplier * (Array.isArray(ids) ? Math.max(ids.length, 1) : 1);
  }
  visit(walk, node.selectionSet, type, childMultiplier, spreading);
}

/** A GitHub connection: a `*Connection` type taking `first`/`last`. */
function isConnection(field: GraphQLField<unknown, unknown>): boolean {
  return getNamedType(field.type).name.endsWith('Connection') && field.args.some((arg) => arg.name === 'first');
}

/**
 * The page size a connection asks for; 0 when it selects only counts (GitHub allows
 * `users { totalCount }` without `first`); undefined after recording an error.
 */
function pageSize(walk: Walk, node: FieldNode, field: GraphQLField<unknown, unknown>): number | undefined {
  const first = argument(walk, node, field, 'first');
  const last = argument(walk, node, field, 'last');
  const name = node.name.value;
  for (const [argName, value] of [
    ['first', first],
    ['last', last],
  ] as const) {
    if (typeof value !== 'number') continue;
    if (value > MAX_PAGE) {
      walk.errors.push(
        new GraphQLError(
          `Requesting ${value} records on the \`${name}\` connection exceeds the \`${argName}\` limit of ${MAX_PAGE} records.`,
          { nodes: node, extensions: { type: 'EXCESSIVE_PAGINATION' } },
        ),
      );
      return undefined;
    }
    if (value < 0) {
      walk.errors.push(
        new GraphQLError(`\`${argName}\` on the \`${name}\` connection cannot be less than zero.`, {
          nodes: node,
          extensions: { type: 'INVALID_PAGINATION' },
        }),
      );
      return undefined;
    }
  }
  if (typeof first === 'number' && typeof last === 'number') {
    walk.errors.push(
      new GraphQLError(`Passing both \`first\` and \`last\` to paginate the \`${name}\` connection is not supported.`, {
        nodes: node,
      }),
    );
    return undefined;
  }
  const size = Math.max(typeof first === 'number' ? first : 0, typeof last === 'number' ? last : 0);
  if (typeof first !== 'number' && typeof last !== 'number' && selectsItems(walk, node.selectionSet)) {
    walk.errors.push(
      new GraphQLError(
        `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
        {
          nodes: node,
          extensions: { type: 'MISSING_PAGINATION_BOUNDARIES' },
        },
      ),
    );
    return undefined;
  }
  return size;
}

/** True when a connection's selection reaches its items (`nodes` or `edges`), through fragments too. */
function selectsItems(walk: Walk, selectionSet: SelectionSetNode | undefined): boolean {
  if (selectionSet === undefined) return false;
  return selectionSet.selections.some((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value === 'nodes' || selection.name.value === 'edges';
    if (selection.kind === Kind.INLINE_FRAGMENT) return selectsItems(walk, selection.selectionSet);
    return selectsItems(walk, walk.fragments.get(selection.name.value)?.selectionSet);
  });
}

function argument(walk: Walk, node: FieldNode, field: GraphQLField<unknown, unknown>, name: string): unknown {
  const definition = field.args.find((arg) => arg.name === name);
  const ast = node.arguments?.find((arg) => arg.name.value === name);
  if (definition === undefined || ast === undefined) return undefined;
  return valueFromAST(ast.value, definition.type, walk.variables);
}
