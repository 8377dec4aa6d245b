// Why: every wrong input gets a clear repomem error before or instead of a silent empty result:
// a malformed memory id, names that cannot be mapped, text over the service's limits, missing
// or refused credentials, a region or endpoint typo, a memory that does not exist; and a batch of
// more than 100 records is split, never refused.
import { openStore } from '@repomem/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgentCoreStore,
  createRecords,
  listRecords,
  openAgentCoreConnection,
  openAgentCoreStore,
  parseAgentCoreSpec,
  storeScheme,
} from '../src/index.js';
import { type AgentCoreEmulator, EMULATOR_CREDENTIALS } from '../src/testing/index.js';
import { emulatorConnection, emulatorStore, freshRepo, startEmulator } from './support.js';

let emulator: AgentCoreEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ memories: ['repomem-bad_input-0123456789', 'other-memory-ABCDEFGHIJ'] });
});
afterAll(async () => {
  await emulator.close();
});

async function codeOf(action: () => Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await action();
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
  throw new Error('expected a failure');
}

const base = () => ({
  memoryId: 'repomem-bad_input-0123456789',
  endpoint: emulator.endpoint,
  region: emulator.region,
  credentials: { ...EMULATOR_CREDENTIALS },
  retries: 1,
  minRetryDelayMs: 1,
});

describe('bad input', () => {
  it('a malformed memory id is INVALID_ARGUMENT before any request', async () => {
    for (const memoryId of ['', 'mem', 'has space-0123456789', 'x-short', '1abc-0123456789']) {
      const failure = await codeOf(async () => openAgentCoreConnection({ ...base(), memoryId }));
      expect(failure.code).toBe('INVALID_ARGUMENT');
      expect(failure.message).toMatch(/invalid AgentCore memory id/);
    }
    const failure = await codeOf(() => openStore('agentcore:nope', { repo: 'acme/app' }));
    expect(failure.code).toBe('INVALID_ARGUMENT');
  });

  it('a memory that does not exist is NOT_FOUND, not an empty store', async () => {
    const store = await openAgentCoreStore({ ...base(), memoryId: 'missing-memory-0123456789', repo: 'acme/app' });
    expect((await codeOf(() => store.list())).code).toBe('NOT_FOUND');
    expect((await codeOf(() => store.get('MEMORY.md'))).code).toBe('NOT_FOUND');
    await store.close();
  });

  it('a repository that cannot be an actorId is INVALID_ARGUMENT naming the rule', async () => {
    for (const repo of ['no-slash', 'a/b/c', `${'o'.repeat(120)}/${'.'.repeat(60)}`]) {
      const failure = await codeOf(async () =>
        createAgentCoreStore({ connection: emulatorConnection(emulator), repo }),
      );
      expect(failure.code).toBe('INVALID_ARGUMENT');
      expect(failure.message).toMatch(/cannot map/);
    }
  });

  it('logins and repositories with "." and "@" work and stay apart', async () => {
    const a = emulatorStore(emulator, 'alice.b@corp/next.js');
    const b = emulatorStore(emulator, 'alice_2Eb_40corp/next_2Ejs');
    await a.write([{ kind: 'put', path: 'MEMORY.md', content: new TextEncoder().encode('- a\n') }]);
    expect(await b.get('MEMORY.md')).toBeUndefined();
    expect(await b.list()).toEqual([]);
    expect((await a.list()).map((entry) => entry.path)).toEqual(['MEMORY.md']);
    await a.close();
    await b.close();
  });

  it('text over the limits is refused before sending; a document over 1 MiB is FILE_TOO_LARGE', async () => {
    const connection = emulatorConnection(emulator);
    emulator.resetStats();
    const failure = await codeOf(() =>
      createRecords(connection, [
        { namespace: '/acme/app/knowledge/', text: 'x'.repeat(16_001), metadata: {}, at: new Date() },
      ]),
    );
    expect(failure.code).toBe('INVALID_ARGUMENT');
    expect(emulator.stats().requests).toBe(0);
    const store = createAgentCoreStore({ connection, repo: freshRepo() });
    const big = new Uint8Array(1024 * 1024 + 1).fill(0x61);
    expect((await codeOf(() => store.write([{ kind: 'put', path: 'big.md', content: big }]))).code).toBe(
      'FILE_TOO_LARGE',
    );
    await store.close();
  });

  it('a document longer than one record is split over several records and rejoined exactly', async () => {
    const store = emulatorStore(emulator);
    const text = `${'é🚀 line of text\n'.repeat(3000)}end`;
    const result = await store.write([{ kind: 'put', path: 'long.md', content: new TextEncoder().encode(text) }]);
    expect(result.status).toBe('committed');
    const records = await listRecords(store.connection, { namespacePath: store.documentsNamespace });
    expect(records.length).toBeGreaterThan(3);
    expect(records.every((record) => record.text.length <= 16_000)).toBe(true);
    const [entry] = await store.list();
    const document = await store.get('long.md');
    expect(new TextDecoder().decode(document?.content)).toBe(text);
    expect(entry?.version).toBe(result.status === 'committed' ? result.versions['long.md'] : '');
    const readAll = store.readAll;
    if (readAll === undefined) throw new Error('readAll missing');
    expect((await readAll({}))[0]?.content).toEqual(document?.content);
    await store.close();
  });

  it('more than 100 records in one call are split into batches of 100, never refused', async () => {
    const connection = emulatorConnection(emulator);
    emulator.resetStats();
    const ids = await createRecords(
      connection,
      Array.from({ length: 250 }, (_, index) => ({
        namespace: '/acme/batch/knowledge/',
        text: `fact ${index}`,
        metadata: { n: String(index) },
        at: new Date(),
      })),
    );
    expect(new Set(ids).size).toBe(250);
    expect(emulator.stats().byOperation.BatchCreateMemoryRecords).toBe(3);
    expect(await listRecords(connection, { namespace: '/acme/batch/knowledge/' })).toHaveLength(250);
    connection.close();
  });

  it('refused credentials are BACKEND_UNAVAILABLE naming where credentials come from, with no stack in the message', async () => {
    const store = await openAgentCoreStore({
      ...base(),
      credentials: { accessKeyId: 'AKIAEXPIRED', secretAccessKey: 'wrong' },
      repo: 'acme/app',
    });
    const failure = await codeOf(() => store.get('MEMORY.md'));
    expect(failure.code).toBe('BACKEND_UNAVAILABLE');
    expect(failure.message).toMatch(/AWS_ACCESS_KEY_ID/);
    expect(failure.message).not.toMatch(/\n\s+at /);
    await store.close();
  });

  it('missing credentials are BACKEND_UNAVAILABLE naming the credential sources', async () => {
    const store = await openAgentCoreStore({
      ...base(),
      credentials: async () => {
        throw Object.assign(new Error('Could not load credentials from any providers'), {
          name: 'CredentialsProviderError',
        });
      },
      repo: 'acme/app',
    });
    const failure = await codeOf(() => store.list());
    expect(failure.code).toBe('BACKEND_UNAVAILABLE');
    expect(failure.message).toMatch(/no valid AWS credentials.*AWS_PROFILE/s);
    await store.close();
  });

  it('a region or endpoint typo is a clear error', async () => {
    expect(() => parseAgentCoreSpec('repomem-bad_input-0123456789?region=useast1', { env: {} })).toThrow(/us-east-1/);
    expect(() => parseAgentCoreSpec('repomem-bad_input-0123456789?endpont=http://x', { env: {} })).toThrow(
      /unknown parameter endpont/,
    );
    expect(() => parseAgentCoreSpec('repomem-bad_input-0123456789?endpoint=127.0.0.1', { env: {} })).toThrow(/http/);
    const wrongRegion = await openAgentCoreStore({ ...base(), region: 'eu-west-1', repo: 'acme/app' });
    const regionFailure = await codeOf(() => wrongRegion.list());
    expect(regionFailure.message).toMatch(/wrong region/);
    await wrongRegion.close();
    const closedPort = await openAgentCoreStore({ ...base(), endpoint: 'http://127.0.0.1:9', repo: 'acme/app' });
    const endpointFailure = await codeOf(() => closedPort.list());
    expect(endpointFailure.code).toBe('BACKEND_UNAVAILABLE');
    expect(endpointFailure.message).toMatch(/unreachable.*region and endpoint/s);
    await closedPort.close();
  });

  it('the scheme parses specs and defaults from the environment', () => {
    expect(
      storeScheme.parse('repomem-bad_input-0123456789?region=eu-west-1&endpoint=http%3A%2F%2F127.0.0.1%3A4566', {
        cwd: '/',
        env: {},
      }),
    ).toEqual({
      memoryId: 'repomem-bad_input-0123456789',
      region: 'eu-west-1',
      endpoint: 'http://127.0.0.1:4566',
    });
    expect(
      storeScheme.parse('repomem-bad_input-0123456789', {
        cwd: '/',
        env: { AWS_REGION: 'us-west-2', AWS_ENDPOINT_URL_BEDROCK_AGENTCORE: 'http://localhost:1' },
      }),
    ).toEqual({ memoryId: 'repomem-bad_input-0123456789', region: 'us-west-2', endpoint: 'http://localhost:1' });
    expect(storeScheme.label({ memoryId: 'm-0123456789', region: 'us-east-1' })).toBe(
      'agentcore:m-0123456789?region=us-east-1',
    );
  });

  it('diagnose explains each failure and passes on a working memory', async () => {
    const context = { cwd: '/', env: {}, repo: 'vercel/next.js', readOnly: true, create: false };
    const diagnose = storeScheme.diagnose;
    if (diagnose === undefined) throw new Error('diagnose missing');
    const previous = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = EMULATOR_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = EMULATOR_CREDENTIALS.secretAccessKey;
    try {
      const good = await diagnose(
        { memoryId: 'repomem-bad_input-0123456789', region: emulator.region, endpoint: emulator.endpoint },
        context,
      );
      expect(good.filter((check) => check.status === 'failed')).toEqual([]);
      expect(good.find((check) => check.check === 'identifier mapping')?.detail).toMatch(/vercel\/next_2Ejs/);
      const missing = await diagnose(
        { memoryId: 'absent-memory-0123456789', region: emulator.region, endpoint: emulator.endpoint },
        context,
      );
      expect(missing.find((check) => check.status === 'failed')?.fix).toMatch(/memory id and region/);
      const typo = await diagnose(
        { memoryId: 'repomem-bad_input-0123456789', region: emulator.region, endpoint: 'http://127.0.0.1:9' },
        context,
      );
      expect(typo.find((check) => check.status === 'failed')?.fix).toMatch(/typo/);
      const unmappable = await diagnose(
        { memoryId: 'repomem-bad_input-0123456789', region: emulator.region },
        { ...context, repo: 'no-slash' },
      );
      expect(unmappable.at(-1)).toMatchObject({ check: 'identifier mapping', status: 'failed' });
    } finally {
      if (previous.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
      else process.env.AWS_ACCESS_KEY_ID = previous.id;
      if (previous.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
      else process.env.AWS_SECRET_ACCESS_KEY = previous.secret;
    }
  });
});
