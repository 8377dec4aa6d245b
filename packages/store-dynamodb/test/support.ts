// Why: the tests run the real AWS SDK client against dynalite (DynamoDB in memory, on 127.0.0.1),
// started by the test file itself; each test gets its own repository scope in one table, so
// fresh, empty backing data costs no table creation.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';

/** A running dynalite and the environment the SDK reads to reach it. */
export interface Dynalite {
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** Start dynalite on a free loopback port and point the SDK's environment at it. */
export async function startDynalite(): Promise<Dynalite> {
  const server: Server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
  });
  return {
    endpoint,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A repository scope no other test uses. */
export function freshRepo(): string {
  return `test/${randomUUID().slice(0, 12)}`;
}
