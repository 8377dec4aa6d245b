// Why: every AgentCore operation the adapter calls must exist in the official service model
// shipped with the emulator, with the method and route the real SDK client sends; checked here
// from the adapter's own sources and from the requests a full round of its calls makes.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as sdk from '@aws-sdk/client-bedrock-agentcore';
import { describe, expect, it } from 'vitest';
import { agentCoreMemoryModel } from '../src/testing/index.js';

const SOURCE_DIR = fileURLToPath(new URL('../src/', import.meta.url));

/** Operations the adapter's modules construct (`new XCommand(`), excluding the emulator. */
function adapterOperations(): string[] {
  const operations = new Set<string>();
  for (const file of readdirSync(SOURCE_DIR)) {
    if (!file.endsWith('.ts')) continue;
    for (const match of readFileSync(`${SOURCE_DIR}${file}`, 'utf8').matchAll(/new (\w+)Command\(/g)) {
      operations.add(match[1] as string);
    }
  }
  return [...operations].sort();
}

/** A command class of the SDK, as far as this test uses it. */
type CommandClass = new (
  input: object,
) => {
  middlewareStack: {
    add(
      middleware: (next: unknown) => (args: { request: { method: string; path: string } }) => Promise<never>,
      options: { step: 'finalizeRequest'; priority: 'low' },
    ): void;
  };
};

/** Members enough for every operation's required labels and body. */
const SAMPLE_INPUT = {
  memoryId: 'memory-0123456789',
  actorId: 'acme/app',
  sessionId: 's1',
  eventId: '1#a',
  memoryRecordId: `mem-${'a'.repeat(40)}`,
  extractionJob: { jobId: 'j' },
  searchCriteria: { searchQuery: 'q' },
  records: [],
  eventTimestamp: new Date(),
  payload: [],
};

describe('routes', () => {
  it('every operation the adapter calls is in the model, with the route the SDK serialises', async () => {
    const model = agentCoreMemoryModel();
    const operations = adapterOperations();
    expect(operations).toEqual(
      expect.arrayContaining([
        'CreateEvent',
        'ListEvents',
        'GetEvent',
        'ListMemoryRecords',
        'BatchCreateMemoryRecords',
      ]),
    );
    const client = new sdk.BedrockAgentCoreClient({
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:1',
      credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      maxAttempts: 1,
    });
    for (const operation of operations) {
      const route = model.route(operation);
      expect(route, `${operation} in the model`).toBeDefined();
      const Command = (sdk as Record<string, unknown>)[`${operation}Command`] as CommandClass | undefined;
      expect(Command, `${operation}Command in the SDK`).toBeDefined();
      if (Command === undefined || route === undefined) continue;
      // Serialise a request with the real client, stop it before it is sent, and match its route.
      const seen: { method?: string; path?: string } = {};
      const command = new Command(SAMPLE_INPUT);
      command.middlewareStack.add(
        () => async (args) => {
          seen.method = args.request.method;
          seen.path = args.request.path;
          throw new Error('stopped before sending');
        },
        { step: 'finalizeRequest', priority: 'low' },
      );
      await expect(client.send(command as Parameters<typeof client.send>[0])).rejects.toThrow('stopped before sending');
      const matched = model.match(seen.method ?? '', seen.path ?? '');
      expect(matched.kind === 'matched' ? matched.route.operation : matched, `${seen.method} ${seen.path}`).toBe(
        operation,
      );
      expect(route.method).toBe(seen.method);
    }
    client.destroy();
  });
});
