// Why: every query is checked against GitHub's own published schema (the IDL in
// @octokit/graphql-schema, updated from GitHub's API), built once per process with the reference
// `graphql` implementation. Both packages are optional peers of @repomem/github (only the testing
// entry needs them), so a missing one is reported with the install command instead of a bare
// module-resolution error.
import { RepomemError } from '@repomem/core';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { checkDateScalars } from './scalars.js';

let built: Promise<GraphQLSchema> | undefined;

/** GitHub's GraphQL schema (built on first use, then shared). */
export function gitHubSchema(): Promise<GraphQLSchema> {
  built ??= loadSchema();
  return built;
}

async function loadSchema(): Promise<GraphQLSchema> {
  let idl: string;
  try {
    const published = await import('@octokit/graphql-schema');
    idl = published.schema.idl;
  } catch (error) {
    built = undefined;
    throw new RepomemError(
      'PACKAGE_MISSING',
      'The loopback GitHub API needs GitHub\'s published GraphQL schema: install it with "npm install --save-dev @octokit/graphql-schema graphql".',
      { cause: error },
    );
  }
  // GitHub's published IDL defines a few fields twice (EnterpriseOwnerInfo); SDL validation would
  // refuse it, so it is skipped: the schema is GitHub's, not ours to check.
  const schema = buildSchema(idl, { assumeValidSDL: true });
  checkDateScalars(schema);
  return schema;
}
