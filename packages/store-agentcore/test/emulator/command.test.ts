// Why: `repomem-agentcore-emulator` is how a separate process (the CLI, a benchmark, a person)
// gets an emulator; its arguments must map to the emulator options and its printed endpoint,
// credentials and store spec must work with the real SDK client.
import { BedrockAgentCoreClient, ListActorsCommand } from '@aws-sdk/client-bedrock-agentcore';
import { describe, expect, it } from 'vitest';
import { parseEmulatorArguments, runEmulatorCommand } from '../../src/testing/index.js';

describe('repomem-agentcore-emulator arguments', () => {
  it('maps flags to options', () => {
    expect(
      parseEmulatorArguments([
        '--memory',
        'first-memory-0123456789',
        '--memory',
        'other-memory-ABCDEFGHIJ',
        '--latency-ms',
        '25',
        '--requests-per-second',
        '20',
        '--fault-rate',
        '0.2',
        '--fault',
        'throttle',
        '--fault',
        'reset',
        '--seed',
        '3',
        '--any-credentials',
      ]),
    ).toEqual({
      kind: 'run',
      options: {
        memories: ['first-memory-0123456789', 'other-memory-ABCDEFGHIJ'],
        latencyMs: 25,
        requestsPerSecond: 20,
        accessKeyIds: 'any',
        faults: { rate: 0.2, kinds: ['throttle', 'reset'], seed: 3 },
      },
    });
    expect(parseEmulatorArguments(['--help'])).toEqual({ kind: 'help' });
  });

  it('explains bad arguments instead of starting', () => {
    expect(parseEmulatorArguments(['--memory', 'bad.id'])).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('memories.0'),
    });
    expect(parseEmulatorArguments(['--fault', 'meteor'])).toMatchObject({ kind: 'invalid' });
    expect(parseEmulatorArguments(['--nope'])).toMatchObject({
      kind: 'invalid',
      message: expect.stringContaining('--nope'),
    });
  });
});

describe('repomem-agentcore-emulator run', () => {
  it('prints a working endpoint, credentials and store spec, and stops when aborted', async () => {
    const lines: string[] = [];
    const stop = new AbortController();
    let announced: () => void = () => {};
    const ready = new Promise<void>((resolve) => {
      announced = resolve;
    });
    const running = runEmulatorCommand(['--region', 'eu-central-1'], {
      write: (line) => {
        lines.push(line);
        if (line.startsWith('repomem store:')) announced();
      },
      signal: stop.signal,
    });
    await ready;
    const endpoint = /listening on (\S+)/.exec(lines[0] ?? '')?.[1] ?? '';
    const [, accessKeyId = '', secretAccessKey = ''] =
      /AWS_ACCESS_KEY_ID=(\S+) AWS_SECRET_ACCESS_KEY=(\S+)/.exec(lines[2] ?? '') ?? [];
    expect(lines[3]).toBe(
      `repomem store: agentcore:repomem_emulator-EMULATOR01?region=eu-central-1&endpoint=${encodeURIComponent(endpoint)}`,
    );
    const client = new BedrockAgentCoreClient({
      endpoint,
      region: 'eu-central-1',
      credentials: { accessKeyId, secretAccessKey },
      maxAttempts: 1,
    });
    try {
      const actors = await client.send(new ListActorsCommand({ memoryId: 'repomem_emulator-EMULATOR01' }));
      expect(actors.actorSummaries).toEqual([]);
    } finally {
      client.destroy();
    }
    stop.abort();
    expect(await running).toBe(0);
  });

  it('exits 2 with the usage for bad arguments', async () => {
    const lines: string[] = [];
    const code = await runEmulatorCommand(['--latency-ms', '-5'], {
      write: (line) => lines.push(line),
      signal: AbortSignal.abort(),
    });
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain('Usage: repomem-agentcore-emulator');
  });
});
