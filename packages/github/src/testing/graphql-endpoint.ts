// Why: answers `POST /graphql` the way GitHub does, in GitHub's order: the body is checked, the
// query parsed and validated against GitHub's schema, its node limit and cost computed (and
// refused like GitHub), the cost charged to the hour's points, and only then executed over the
// data set. Every refusal is an HTTP 200 with GitHub's `{errors: [...]}` shape, as on GitHub.
import {
  type DocumentNode,
  execute,
  type GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  parse,
  print,
  validate,
} from 'graphql';
import { z } from 'zod';
import type { GitHubDataSet } from './data-set.js';
import { gitHubSchema } from './github-schema.js';
import { gitHubTime } from './ids.js';
import { type QueryLimits, queryLimits } from './query-limits.js';
import type { RateLimitBucket } from './rate-limit.js';
import { fieldResolver, type ResolverContext, typeResolver } from './resolvers.js';
import type { TokenGrant } from './token-grants.js';

/** The JSON body of a GraphQL request. */
const graphQLRequestSchema = z.object({
  query: z.string(),
  variables: z.record(z.string(), z.unknown()).nullish(),
  operationName: z.string().nullish(),
});

/** How a GraphQL request was answered. */
export interface GraphQLAnswer {
  readonly status: number;
  readonly body: unknown;
  /** Points charged (0 when refused). */
  readonly cost: number;
  /** True when the query was refused before it ran. */
  readonly refused: boolean;
}

/** One error as GitHub formats it: `type` beside `message`, `locations` and `path`. */
export interface GitHubGraphQLError {
  readonly type?: string;
  readonly message: string;
  readonly locations?: readonly { readonly line: number; readonly column: number }[];
  readonly path?: readonly (string | number)[];
  readonly extensions?: Readonly<Record<string, unknown>>;
}

/** Whether GitHub would run a query, and what it would cost; or the errors GitHub answers instead. */
export type GitHubQueryCheck =
  | {
      readonly kind: 'accepted';
      /** Rate-limit points GitHub charges. */
      readonly cost: number;
      /** Nodes the query could return at most (GitHub's node count; the limit is 500,000). */
      readonly nodeCount: number;
      /** Requests GitHub's cost formula counts (cost = requests / 100, rounded, at least 1). */
      readonly requestCount: number;
    }
  | { readonly kind: 'refused'; readonly errors: readonly GitHubGraphQLError[] };

/**
 * Checks a query the way GitHub does before running it: parsed, validated against GitHub's
 * published schema, variables coerced, pagination arguments and the node limit enforced, cost
 * computed. Nothing is executed; no server is needed.
 */
export async function checkGitHubQuery(
  query: string,
  variables: Readonly<Record<string, unknown>> = {},
  operationName?: string,
): Promise<GitHubQueryCheck> {
  const prepared = await prepare({ query, variables, operationName });
  if (prepared.kind === 'refused') return prepared;
  const { cost, nodeCount, requestCount } = prepared.limits;
  return { kind: 'accepted', cost, nodeCount, requestCount };
}

type Prepared =
  | { readonly kind: 'refused'; readonly errors: readonly GitHubGraphQLError[] }
  | {
      readonly kind: 'ready';
      readonly schema: GraphQLSchema;
      readonly document: DocumentNode;
      readonly limits: Extract<QueryLimits, { kind: 'accepted' }>;
    };

/** Everything GitHub does before running a query (in GitHub's order). */
async function prepare(rawBody: unknown): Promise<Prepared> {
  const refused = (errors: readonly GitHubGraphQLError[]): Prepared => ({ kind: 'refused', errors });
  const request = graphQLRequestSchema.safeParse(rawBody);
  if (!request.success) return refused([{ message: 'A query attribute must be specified and must be a string.' }]);
  const schema = await gitHubSchema();
  let document: DocumentNode;
  try {
    document = parse(request.data.query);
  } catch (error) {
    return refused([formatError(error as GraphQLError)]);
  }
  const invalid = validate(schema, document);
  if (invalid.length > 0) return refused(invalid.map(gitHubValidationError));
  const operation = getOperationAST(document, request.data.operationName ?? undefined);
  if (operation === null || operation === undefined) {
    return refused([{ message: 'An operation name is required when the document holds several operations.' }]);
  }
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], request.data.variables ?? {});
  if (coerced.errors !== undefined) {
    const types = new Map(
      (operation.variableDefinitions ?? []).map((definition) => [
        definition.variable.name.value,
        print(definition.type),
      ]),
    );
    return refused(coerced.errors.map((error) => gitHubVariableError(error, types)));
  }
  const limits = queryLimits(schema, document, operation, coerced.coerced);
  if (limits.kind === 'refused') return refused(limits.errors.map(formatError));
  return { kind: 'ready', schema, document, limits };
}

/** Answers one GraphQL request body for the token's `grant`, charging `bucket`. */
export async function answerGraphQL(
  rawBody: unknown,
  data: GitHubDataSet,
  grant: TokenGrant,
  bucket: RateLimitBucket,
): Promise<GraphQLAnswer> {
  const viewer = grant.viewer;
  const prepared = await prepare(rawBody);
  if (prepared.kind === 'refused') return refuse(prepared.errors);
  const { schema, document, limits } = prepared;
  const request = graphQLRequestSchema.parse(rawBody);
  if (!bucket.take(limits.cost)) {
    return refuse([
      {
        type: 'RATE_LIMITED',
        message: `API rate limit already exceeded for user ID ${data.actor(viewer).databaseId}.`,
      },
    ]);
  }
  const context: ResolverContext = {
    data,
    viewer,
    grant,
    rateLimit: {
      cost: limits.cost,
      limit: bucket.limit,
      nodeCount: limits.nodeCount,
      remaining: bucket.remaining,
      resetAt: gitHubTime(bucket.resetAt * 1000),
      used: bucket.used,
    },
  };
  const result = await execute({
    schema,
    document,
    operationName: request.operationName,
    variableValues: request.variables ?? {},
    contextValue: context,
    fieldResolver,
    typeResolver,
  });
  const body: { data?: unknown; errors?: GitHubGraphQLError[] } = { data: result.data ?? null };
  if (result.errors !== undefined && result.errors.length > 0) body.errors = result.errors.map(formatError);
  return { status: 200, body, cost: limits.cost, refused: false };
}

function refuse(errors: readonly GitHubGraphQLError[]): GraphQLAnswer {
  return { status: 200, body: { errors }, cost: 0, refused: true };
}

/** Formats an error as GitHub does: its `type` at the top level, then path, locations and message. */
function formatError(error: GraphQLError): GitHubGraphQLError {
  const formatted: GraphQLFormattedError = error.toJSON();
  const { type, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
  return {
    ...(typeof type === 'string' ? { type } : {}),
    ...(formatted.path === undefined ? {} : { path: formatted.path }),
    ...(Object.keys(extensions).length > 0 ? { extensions } : {}),
    ...(formatted.locations === undefined ? {} : { locations: formatted.locations }),
    message: formatted.message,
  };
}

/** The validation messages of GitHub's server (graphql-ruby) for the most common mistakes. */
function gitHubValidationError(error: GraphQLError): GitHubGraphQLError {
  const locations = error.locations === undefined ? {} : { locations: error.locations };
  let match = /^Cannot query field "(\w+)" on type "(\w+)"\./.exec(error.message);
  if (match !== null) {
    const [, fieldName, typeName] = match;
    return {
      extensions: { code: 'undefinedField', typeName, fieldName },
      ...locations,
      message: `Field '${fieldName}' doesn't exist on type '${typeName}'`,
    };
  }
  match = /^Unknown argument "(\w+)" on field "(\w+)\.(\w+)"\./.exec(error.message);
  if (match !== null) {
    const [, argumentName, , fieldName] = match;
    return {
      extensions: { code: 'argumentNotAccepted', name: fieldName, typeName: 'Field', argumentName },
      ...locations,
      message: `Field '${fieldName}' doesn't accept argument '${argumentName}'`,
    };
  }
  match = /^Field "(\w+)\.(\w+)" argument "(\w+)" of type ".+" is required, but it was not provided\./.exec(
    error.message,
  );
  if (match !== null) {
    const [, , fieldName, argumentName] = match;
    return {
      extensions: { code: 'missingRequiredArguments', className: 'Field', name: fieldName, arguments: argumentName },
      ...locations,
      message: `Field '${fieldName}' is missing required arguments: ${argumentName}`,
    };
  }
  match = /^Field "(\w+)" of type "(.+)" must have a selection of subfields\./.exec(error.message);
  if (match !== null) {
    const [, fieldName, typeName] = match;
    return {
      extensions: { code: 'selectionMismatch', nodeName: `field '${fieldName}'`, typeName },
      ...locations,
      message: `Field must have selections (field '${fieldName}' returns ${(typeName ?? '').replace(/[![\]]/g, '')} but has no selections. Did you mean '${fieldName} { ... }'?)`,
    };
  }
  return { ...locations, message: error.message };
}

/** GitHub's wording for a variable whose value does not fit its type. */
function gitHubVariableError(error: GraphQLError, types: ReadonlyMap<string, string>): GitHubGraphQLError {
  const match =
    /^Variable "\$(\w+)" (?:got invalid value (.*?); (.*)|of required type "(.+)" was not provided\.)$/s.exec(
      error.message,
    );
  if (match === null) return formatError(error);
  const [, name = '', value, explanation, required] = match;
  const locations = error.locations === undefined ? {} : { locations: error.locations };
  return {
    extensions: {
      value: value === undefined ? null : safeJson(value),
      problems: [{ path: [], explanation: explanation ?? `Expected value to not be null (type ${required})` }],
    },
    ...locations,
    message: `Variable $${name} of type ${types.get(name) ?? required ?? 'unknown'} was provided invalid value`,
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
