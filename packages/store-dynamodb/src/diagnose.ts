// Why: `repomem doctor --store dynamodb:<table>` should say what is wrong in DynamoDB's own terms
// (no credentials, the table missing, a table made by hand with another key schema) with the fix,
// instead of the first failing request's raw SDK error.
import { DescribeTableCommand, DynamoDBClient, type TableDescription } from '@aws-sdk/client-dynamodb';
import { createStore, type OpenStoreContext, type StoreDiagnostic } from '@repomem/core';
import { openDynamoDbDriver } from './driver.js';
import type { DynamoDbTarget } from './scheme.js';
import { DYNAMODB_TABLE_SCHEMA } from './table.js';

const problem = (error: unknown): string => {
  const { name, message } = error as { name?: string; message?: string };
  return `${name ?? 'Error'}: ${message ?? String(error)}`;
};

function keySchemaOf(table: TableDescription | undefined): string {
  return JSON.stringify(table?.KeySchema?.map((key) => [key.AttributeName, key.KeyType]) ?? []);
}

/** The checks of `repomem doctor` for a `dynamodb:` spec. Never throws for a failed check. */
export async function diagnoseDynamoDb(target: DynamoDbTarget, context: OpenStoreContext): Promise<StoreDiagnostic[]> {
  const checks: StoreDiagnostic[] = [];
  const client = new DynamoDBClient({
    maxAttempts: 2,
    ...(target.region === undefined ? {} : { region: target.region }),
    ...(target.endpoint === undefined ? {} : { endpoint: target.endpoint }),
  });
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: target.table }));
    checks.push({ check: 'table', status: 'ok', detail: `${target.table} is ${Table?.TableStatus ?? 'unknown'}` });
    const expected = keySchemaOf(DYNAMODB_TABLE_SCHEMA as TableDescription);
    if (keySchemaOf(Table) !== expected) {
      checks.push({
        check: 'key schema',
        status: 'failed',
        detail: `${target.table} has keys ${keySchemaOf(Table)}, the store needs ${expected}`,
        fix: 'use another table name, or create the table with DYNAMODB_TABLE_SCHEMA (see the package README)',
      });
      return checks;
    }
    checks.push({ check: 'key schema', status: 'ok', detail: 'pk (hash) and sk (range), as the store needs' });
  } catch (error) {
    const missing = (error as { name?: string }).name === 'ResourceNotFoundException';
    checks.push({
      check: 'table',
      status: missing ? 'warning' : 'failed',
      detail: missing ? `${target.table} does not exist yet` : problem(error),
      fix: missing
        ? 'the first writable open creates it (or create it with DYNAMODB_TABLE_SCHEMA)'
        : 'check the credentials (AWS_PROFILE, AWS_ACCESS_KEY_ID), the region and AWS_ENDPOINT_URL_DYNAMODB, and the dynamodb:DescribeTable permission',
    });
    return checks;
  } finally {
    client.destroy();
  }
  try {
    const store = createStore(await openDynamoDbDriver({ ...target, repo: context.repo, create: false }));
    try {
      const documents = await store.list();
      const state = await store.state.list();
      checks.push({
        check: 'reads',
        status: 'ok',
        detail: `${documents.length} documents and ${state.length} state keys of ${context.repo}`,
      });
    } finally {
      await store.close();
    }
  } catch (error) {
    checks.push({
      check: 'reads',
      status: 'failed',
      detail: problem(error),
      fix: 'grant dynamodb:Query and dynamodb:BatchGetItem on the table',
    });
  }
  return checks;
}
