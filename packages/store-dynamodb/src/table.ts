// Why: the store needs one table with a fixed key schema; a first open creates it (on-demand
// capacity) so trying the store takes no console work, and the same schema is exported for
// infrastructure as code (CloudFormation, CDK, Terraform) where a process may not create tables.
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { RepomemError } from '@repomem/core';

/**
 * The table every `dynamodb:` store uses, as `CreateTable` input (without `TableName`):
 * partition key `pk` (string: `<owner>/<name>#<namespace>`), sort key `sk` (string: the document
 * path or state key), on-demand capacity. Items also hold `ver` (string, the version), `size`
 * (number, bytes) and `val` (binary, the content).
 */
export const DYNAMODB_TABLE_SCHEMA: Readonly<Omit<CreateTableCommandInput, 'TableName'>> = {
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' },
    { AttributeName: 'sk', AttributeType: 'S' },
  ],
  KeySchema: [
    { AttributeName: 'pk', KeyType: 'HASH' },
    { AttributeName: 'sk', KeyType: 'RANGE' },
  ],
  BillingMode: 'PAY_PER_REQUEST',
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Make sure `table` exists and is active: create it with {@link DYNAMODB_TABLE_SCHEMA} when it is
 * missing and `create` is true, else throw `NOT_FOUND` naming the table and the fix.
 */
export async function ensureTable(client: DynamoDBClient, table: string, create: boolean): Promise<void> {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    let status: string | undefined;
    try {
      status = (await client.send(new DescribeTableCommand({ TableName: table }))).Table?.TableStatus;
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
      if (!create) {
        throw new RepomemError(
          'NOT_FOUND',
          `DynamoDB table ${table} does not exist: open the store writable once to create it, or create it with the schema in the @repomem/store-dynamodb README`,
          { details: { table } },
        );
      }
      try {
        await client.send(new CreateTableCommand({ ...DYNAMODB_TABLE_SCHEMA, TableName: table }));
      } catch (raced) {
        if ((raced as { name?: string }).name !== 'ResourceInUseException') throw raced;
      }
    }
    if (status === 'ACTIVE') return;
    await sleep(Math.min(1000, 50 * 2 ** Math.min(attempt, 5)));
  }
  throw new RepomemError('BACKEND_UNAVAILABLE', `DynamoDB table ${table} did not become active`, {
    details: { table },
  });
}
