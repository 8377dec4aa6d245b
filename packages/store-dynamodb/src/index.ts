// Why: the public entry point of @repomem/store-dynamodb: the driver, a one-call store opener,
// the table schema for infrastructure as code, and the `dynamodb:` scheme for core's registry.
import { createStore, type KitStore } from '@repomem/core';
import { type DynamoDbDriverOptions, openDynamoDbDriver } from './driver.js';

export { diagnoseDynamoDb } from './diagnose.js';
export {
  DYNAMODB_MAX_ITEM_BYTES,
  DYNAMODB_MAX_VALUE_BYTES,
  type DynamoDbDriverOptions,
  openDynamoDbDriver,
} from './driver.js';
export { type DynamoDbTarget, storeScheme } from './scheme.js';
export { DYNAMODB_TABLE_SCHEMA, ensureTable } from './table.js';

/**
 * Open a repomem store on a DynamoDB table (created when missing).
 *
 * @example
 * ```ts
 * const store = await openDynamoDbStore({ table: 'repomem', repo: 'acme/app', region: 'eu-west-1' });
 * ```
 */
export async function openDynamoDbStore(options: DynamoDbDriverOptions): Promise<KitStore> {
  return createStore(await openDynamoDbDriver(options));
}
