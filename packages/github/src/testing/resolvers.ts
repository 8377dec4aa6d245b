// Why: maps GitHub's GraphQL fields onto the in-memory model for graphql-js's `execute`. Scalars
// with GitHub's names are read straight from the records; computed fields (relations, connections,
// URLs, lookups) come from the root and content resolver tables. A field the model cannot answer
// is an explicit error naming it, never a silent null, so a sync asking for something new finds
// out at once.
import { GraphQLError, type GraphQLFieldResolver, type GraphQLTypeResolver } from 'graphql';
import { CONTENT_RESOLVERS } from './resolve-content.js';
import { ROOT_RESOLVERS } from './resolve-root.js';
import type { ResolverContext } from './resolver-kit.js';
import { View } from './views.js';

export type { RateLimitView, ResolverContext } from './resolver-kit.js';
export { WEB_ORIGIN } from './resolver-kit.js';

const RESOLVERS = { ...ROOT_RESOLVERS, ...CONTENT_RESOLVERS };

/** Resolves a field: a computed one from the table below, else the record's own value. */
export const fieldResolver: GraphQLFieldResolver<unknown, ResolverContext> = (source, args, context, info) => {
  const typeName = info.parentType.name;
  const computed = RESOLVERS[typeName]?.[info.fieldName];
  if (computed !== undefined) return computed(source as View, args, context);
  const value =
    source instanceof View ? source.field(info.fieldName) : ((source ?? {}) as Record<string, unknown>)[info.fieldName];
  if (value === undefined) {
    throw new GraphQLError(`The loopback GitHub API does not serve ${typeName}.${info.fieldName} yet.`, {
      extensions: { type: 'LOOPBACK_UNSUPPORTED' },
    });
  }
  return value;
};

/** Names the GraphQL type of an abstract value (Node, Actor, RepositoryOwner, unions). */
export const typeResolver: GraphQLTypeResolver<unknown, ResolverContext> = (value) =>
  value instanceof View ? value.type : (value as { __typename?: string }).__typename;
