// Why: what a DynamoDB deployment meets that the suites do not: throttling
// (ProvisionedThroughputExceededException, injected by a loopback proxy in front of dynalite) is
// retried until the write lands; a document over the 400 KB item limit is refused with a clear
// error and writes nothing; a missing table is created with the documented schema, or refused
// read-only; the `dynamodb:` spec parses and opens through core's registry.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { isRepomemError, StoreRegistry } from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DYNAMODB_MAX_VALUE_BYTES, openDynamoDbStore, storeScheme } from '../src/index.js';
import { type Dynalite, freshRepo, startDynalite } from './support.js';

let dynamo: Dynalite;
beforeAll(async () => {
  dynamo = await startDynalite();
});
afterAll(async () => {
  await dynamo.stop();
});

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A proxy to dynalite answering the first `throttled` PutItem requests with a throttling error. */
async function throttlingProxy(throttled: number): Promise<{ endpoint: string; puts: () => number; server: Server }> {
  let puts = 0;
  const target = new URL(dynamo.endpoint);
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      if (String(incoming.headers['x-amz-target']).endsWith('.PutItem')) {
        puts += 1;
        if (puts <= throttled) {
          outgoing.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
          outgoing.end(
            JSON.stringify({
              __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
              message: 'The level of configured provisioned throughput for the table was exceeded.',
            }),
          );
          return;
        }
      }
      const forward = request(
        {
          host: target.hostname,
          port: target.port,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 500, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, puts: () => puts, server };
}

describe('DynamoDB store limits', () => {
  it('retries throttled writes until they land', async () => {
    const proxy = await throttlingProxy(2);
    try {
      const store = await openDynamoDbStore({ table: 'limits', repo: freshRepo(), endpoint: proxy.endpoint });
      const result = await store.write([
        { kind: 'put', path: 'MEMORY.md', content: utf8('- a\n'), expectedVersion: null },
      ]);
      expect(result.status).toBe('committed');
      expect(proxy.puts()).toBe(3);
      expect(new TextDecoder().decode((await store.get('MEMORY.md'))?.content)).toBe('- a\n');
      await store.close();
    } finally {
      proxy.server.close();
    }
  }, 30_000);

  it('refuses a document over the item limit with FILE_TOO_LARGE and writes nothing', async () => {
    const store = await openDynamoDbStore({ table: 'limits', repo: freshRepo() });
    expect(store.capabilities.maxDocumentBytes).toBe(DYNAMODB_MAX_VALUE_BYTES);
    let caught: unknown;
    try {
      await store.write([{ kind: 'put', path: 'big.md', content: new Uint8Array(DYNAMODB_MAX_VALUE_BYTES + 1) }]);
    } catch (error) {
      caught = error;
    }
    expect(isRepomemError(caught, 'FILE_TOO_LARGE')).toBe(true);
    expect(await store.list()).toEqual([]);
    await store.close();
  });

  it('creates a missing table with the documented key schema; read-only refuses a missing one', async () => {
    const registry = new StoreRegistry({ builtins: false });
    registry.registerStoreScheme(storeScheme);
    await expect(registry.openStore('dynamodb:absent-table', { readOnly: true, cwd: '/' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const store = await registry.openStore('dynamodb:created-table', { repo: 'acme/app', cwd: '/' });
    expect(store.name).toBe('dynamodb');
    await store.close();
    const client = new DynamoDBClient({});
    const { Table } = await client.send(new DescribeTableCommand({ TableName: 'created-table' }));
    client.destroy();
    expect(Table?.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
  });

  it('doctor names a missing table and a foreign key schema, and reads a good one', async () => {
    const registry = new StoreRegistry({ builtins: false });
    registry.registerStoreScheme(storeScheme);
    const missing = await registry.diagnoseStore('dynamodb:not-there', { cwd: '/' });
    expect(missing.map((check) => [check.check, check.status])).toEqual([['table', 'warning']]);
    const client = new DynamoDBClient({});
    await client.send(
      new CreateTableCommand({
        TableName: 'foreign-table',
        AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    client.destroy();
    const foreign = await registry.diagnoseStore('dynamodb:foreign-table', { cwd: '/' });
    expect(foreign.map((check) => [check.check, check.status])).toEqual([
      ['table', 'ok'],
      ['key schema', 'failed'],
    ]);
    await (await registry.openStore('dynamodb:doctor-table', { cwd: '/' })).close();
    const good = await registry.diagnoseStore('dynamodb:doctor-table', { cwd: '/' });
    expect(good.map((check) => [check.check, check.status])).toEqual([
      ['table', 'ok'],
      ['key schema', 'ok'],
      ['reads', 'ok'],
    ]);
  });

  it('parses dynamodb:<table>[?region=] and refuses a bad table name or option', async () => {
    const context = { cwd: '/', env: {} };
    expect(storeScheme.parse('memory?region=eu-west-1', context)).toEqual({ table: 'memory', region: 'eu-west-1' });
    expect(storeScheme.label({ table: 'memory' })).toBe('dynamodb:memory');
    expect(() => storeScheme.parse('x', context)).toThrow(/table name/);
    expect(() => storeScheme.parse('memory?endpoint=x', context)).toThrow(/unknown option/);
    expect(storeScheme.parse('memory', { cwd: '/', env: { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:1' } })).toEqual(
      {
        table: 'memory',
        endpoint: 'http://127.0.0.1:1',
      },
    );
  });
});
