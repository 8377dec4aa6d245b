// Why: a schema built from IDL accepts any value for a custom scalar, but GitHub refuses a
// `DateTime` that is not ISO 8601 (a `since` of "2026-05-02 17:45" or a bare number is an error
// there, not an empty page). GitHub's date scalars get GitHub's input checks here, so a client
// sending a malformed timestamp fails in tests as it would in production.
import { GraphQLError, type GraphQLSchema, isScalarType, Kind, type ValueNode } from 'graphql';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Makes the schema's `DateTime` and `Date` scalars check their input like GitHub. */
export function checkDateScalars(schema: GraphQLSchema): void {
  for (const [name, pattern, example] of [
    ['DateTime', DATE_TIME, '2026-05-02T17:45:06Z'],
    ['Date', DATE, '2026-05-02'],
  ] as const) {
    const scalar = schema.getType(name);
    if (!isScalarType(scalar)) continue;
    const check = (value: unknown, node?: ValueNode): string => {
      if (typeof value === 'string' && pattern.test(value) && !Number.isNaN(Date.parse(value))) return value;
      throw new GraphQLError(`${JSON.stringify(value)} is not a valid ${name} (ISO 8601, e.g. ${example})`, {
        ...(node === undefined ? {} : { nodes: node }),
      });
    };
    Object.assign(scalar, {
      parseValue: (value: unknown) => check(value),
      parseLiteral: (node: ValueNode) => check(node.kind === Kind.STRING ? node.value : node.kind, node),
    });
  }
}
