// Why: DynamoDB as a store kit driver, written only against the kit's contract: one item per key,
// conditional writes for compare-and-swap, a Query by key prefix for scans, strongly consistent
// reads. There is no multi-item transaction here (dynalite, the test backend, has no
// TransactWriteItems), so the driver declares `per-key` batches and core puts back a batch that
// conflicts half-way. Throttling and transient errors are retried by the SDK's own retry strategy.
import {
  BatchGetItemCommand,
  type BatchGetItemCommandOutput,
  ConditionalCheckFailedException,
  DeleteItemCommand,
  DynamoDBClient,
  type DynamoDBClientConfig,
  PutItemCommand,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import { KIT_DRIVER_VERSION, type KitChange, type KitDriver, type KitEntry, RepomemError } from '@repomem/core';
import { z } from 'zod';
import { ensureTable } from './table.js';

/** DynamoDB's largest item: 400 KB, attribute names and values included. */
export const DYNAMODB_MAX_ITEM_BYTES = 400 * 1024;

/** Largest document or value the store accepts: the item limit minus room for keys and attributes. */
export const DYNAMODB_MAX_VALUE_BYTES = DYNAMODB_MAX_ITEM_BYTES - 2048;

/** Longest sort key DynamoDB accepts, in UTF-8 bytes (equal to core's longest document path). */
const MAX_SORT_KEY_BYTES = 1024;

/** Options of {@link openDynamoDbDriver}. */
export interface DynamoDbDriverOptions {
  /** Table name (created with `DYNAMODB_TABLE_SCHEMA` when missing and `create` is true). */
  readonly table: string;
  /** Repository scope `owner/name` (default `local/default`): one table holds many repositories. */
  readonly repo?: string;
  /** Region (default: the SDK's sources, `AWS_REGION` or the profile). */
  readonly region?: string;
  /** Endpoint (default: the SDK's sources, `AWS_ENDPOINT_URL_DYNAMODB` included). */
  readonly endpoint?: string;
  /** Create a missing table (default `true`); `false` makes a missing table `NOT_FOUND`. */
  readonly create?: boolean;
  /** Attempts per request, throttling included (default 10; the SDK backs off with jitter). */
  readonly maxAttempts?: number;
  /** A client to use instead of one built from the options (not destroyed on close). */
  readonly client?: DynamoDBClient;
}

const OptionsSchema = z.object({
  table: z.string().regex(/^[A-Za-z0-9_.-]{3,255}$/, 'a table name is 3 to 255 letters, digits, "_", "-" or "."'),
  repo: z.string().min(3).max(300).default('local/default'),
  region: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'not a region name')
    .optional(),
  endpoint: z.url().optional(),
  create: z.boolean().default(true),
  maxAttempts: z.number().int().min(1).max(30).default(10),
  // Duck-typed: an application's client may come from another copy of the SDK.
  client: z
    .custom<DynamoDBClient>(
      (value) => typeof (value as { send?: unknown } | null)?.send === 'function',
      'not a DynamoDBClient',
    )
    .optional(),
});

const ItemSchema = z.object({
  sk: z.object({ S: z.string() }),
  ver: z.object({ S: z.string().min(1) }),
  size: z.object({ N: z.string().regex(/^\d+$/) }),
  val: z.object({ B: z.instanceof(Uint8Array) }).optional(),
});

const encoder = new TextEncoder();
const bytes = (text: string): number => encoder.encode(text).byteLength;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function backendError(operation: string, error: unknown): unknown {
  if (error instanceof RepomemError) return error;
  const { name, message } = error as { name?: string; message?: string };
  return new RepomemError('BACKEND_UNAVAILABLE', `DynamoDB ${operation} failed: ${name ?? 'Error'}: ${message ?? ''}`, {
    cause: error,
    details: { operation, name },
  });
}

function toEntry(raw: unknown, withValue: boolean): KitEntry {
  const parsed = ItemSchema.safeParse(raw);
  if (!parsed.success) {
    throw new RepomemError('INVALID_DOCUMENT', `DynamoDB item is not a repomem item: ${parsed.error.message}`);
  }
  const { sk, ver, size, val } = parsed.data;
  const length = Number(size.N);
  if (!withValue) return { key: sk.S, version: ver.S, size: length };
  const value = val?.B ?? new Uint8Array(0);
  return { key: sk.S, version: ver.S, size: value.byteLength, value };
}

/**
 * Open a driver on a DynamoDB table (pass it to `createStore`, or use `openDynamoDbStore`).
 * Credentials, region and endpoint come from the SDK's usual sources unless given.
 */
export async function openDynamoDbDriver(input: DynamoDbDriverOptions): Promise<KitDriver> {
  const parsed = OptionsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RepomemError(
      'INVALID_ARGUMENT',
      `invalid DynamoDB store option ${issue?.path.join('.')}: ${issue?.message}`,
    );
  }
  const options = parsed.data;
  const config: DynamoDBClientConfig = {
    maxAttempts: options.maxAttempts,
    ...(options.region === undefined ? {} : { region: options.region }),
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
  };
  const client = options.client ?? new DynamoDBClient(config);
  const { table } = options;
  const pk = (namespace: string): string => `${options.repo}#${namespace}`;
  const key = (namespace: string, sk: string) => ({ pk: { S: pk(namespace) }, sk: { S: sk } });
  try {
    await ensureTable(client, table, options.create);
  } catch (error) {
    if (options.client === undefined) client.destroy();
    throw backendError('DescribeTable', error);
  }

  async function read(namespace: string, keys: readonly string[]): Promise<(KitEntry | undefined)[]> {
    const found = new Map<string, KitEntry>();
    const unique = [...new Set(keys)].filter((sk) => bytes(sk) <= MAX_SORT_KEY_BYTES);
    for (let start = 0; start < unique.length; start += 100) {
      let request: BatchGetItemCommandOutput['UnprocessedKeys'] = {
        [table]: { Keys: unique.slice(start, start + 100).map((sk) => key(namespace, sk)), ConsistentRead: true },
      };
      for (let round = 0; request !== undefined && Object.keys(request).length > 0; round += 1) {
        if (round > 0) await sleep(Math.min(1000, 25 * 2 ** round));
        let output: BatchGetItemCommandOutput;
        try {
          output = await client.send(new BatchGetItemCommand({ RequestItems: request }));
        } catch (error) {
          throw backendError('BatchGetItem', error);
        }
        for (const item of output.Responses?.[table] ?? []) {
          const entry = toEntry(item, true);
          found.set(entry.key, entry);
        }
        request = output.UnprocessedKeys;
      }
    }
    return keys.map((sk) => found.get(sk));
  }

  async function scan(namespace: string, scanOptions: { prefix: string; values?: boolean }): Promise<KitEntry[]> {
    const withValue = scanOptions.values !== false;
    const query: QueryCommandInput = {
      TableName: table,
      ConsistentRead: true,
      KeyConditionExpression: scanOptions.prefix === '' ? 'pk = :pk' : 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': { S: pk(namespace) },
        ...(scanOptions.prefix === '' ? {} : { ':prefix': { S: scanOptions.prefix } }),
      },
      ...(withValue ? {} : { ProjectionExpression: 'sk, ver, #size', ExpressionAttributeNames: { '#size': 'size' } }),
    };
    const out: KitEntry[] = [];
    let start: QueryCommandInput['ExclusiveStartKey'];
    do {
      try {
        const page = await client.send(new QueryCommand({ ...query, ExclusiveStartKey: start }));
        for (const item of page.Items ?? []) out.push(toEntry(item, withValue));
        start = page.LastEvaluatedKey;
      } catch (error) {
        throw backendError('Query', error);
      }
    } while (start !== undefined);
    // DynamoDB orders by UTF-8 bytes; the contract asks for JavaScript's code-unit order.
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async function writeOne(change: KitChange): Promise<string | null | 'committed'> {
    const condition =
      change.expected === undefined
        ? {}
        : change.expected === null
          ? { ConditionExpression: 'attribute_not_exists(sk)' }
          : {
              ConditionExpression: 'ver = :expected',
              ExpressionAttributeValues: { ':expected': { S: change.expected } },
            };
    if (bytes(change.key) > MAX_SORT_KEY_BYTES) {
      if (change.value !== null) {
        throw new RepomemError('INVALID_PATH', `key is over ${MAX_SORT_KEY_BYTES} bytes, DynamoDB's sort key limit`);
      }
      return change.expected === undefined || change.expected === null ? 'committed' : null;
    }
    try {
      if (change.value === null || change.version === null) {
        await client.send(
          new DeleteItemCommand({ TableName: table, Key: key(change.namespace, change.key), ...condition }),
        );
      } else {
        const size = change.value.byteLength;
        const itemBytes = 14 + bytes(pk(change.namespace)) + bytes(change.key) + bytes(change.version) + 21 + size;
        if (itemBytes > DYNAMODB_MAX_ITEM_BYTES) {
          throw new RepomemError(
            'FILE_TOO_LARGE',
            `${change.key} is ${size} bytes: a DynamoDB item holds at most 400 KB, so this store accepts documents of at most ${DYNAMODB_MAX_VALUE_BYTES} bytes`,
            { details: { path: change.key, size, maxDocumentBytes: DYNAMODB_MAX_VALUE_BYTES } },
          );
        }
        const item = {
          ...key(change.namespace, change.key),
          ver: { S: change.version },
          size: { N: String(size) },
          ...(size === 0 ? {} : { val: { B: change.value } }),
        };
        await client.send(new PutItemCommand({ TableName: table, Item: item, ...condition }));
      }
      return 'committed';
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw backendError('PutItem/DeleteItem', error);
      const [current] = await read(change.namespace, [change.key]);
      return current?.version ?? null;
    }
  }

  return {
    kit: KIT_DRIVER_VERSION,
    name: 'dynamodb',
    batch: 'per-key',
    maxValueBytes: DYNAMODB_MAX_VALUE_BYTES,
    read,
    scan,
    async write(changes) {
      // Per-key: core sends one change per call; several are applied in order up to a conflict.
      for (const change of changes) {
        const outcome = await writeOne(change);
        if (outcome !== 'committed') {
          return { status: 'conflict', conflicts: [{ namespace: change.namespace, key: change.key, actual: outcome }] };
        }
      }
      return { status: 'committed' };
    },
    async close() {
      if (options.client === undefined) client.destroy();
    },
  };
}
