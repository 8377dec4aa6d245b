// Why: every client window starts its own server process, so several processes write one store
// at once; the reference memory server loses writes then. Four server processes, each driven by
// its own client, add 50 bullets each to one store: all 200 must land, on every store kind.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { connectStdio, makeWorkspace, ok, STORE_KINDS } from './helpers.js';

const PROCESSES = 4;
const WRITES = 50;

describe.each(STORE_KINDS)('four server processes on one %s store', (kind) => {
  it(`${PROCESSES} x ${WRITES} writes: every one lands`, { timeout: 60_000 }, async () => {
    const workspace = makeWorkspace(kind);
    const options = { storeSpec: workspace.storeSpec, repo: 'acme/app', watchIntervalMs: 0 };
    const clients: Client[] = [];
    try {
      for (let index = 0; index < PROCESSES; index += 1) clients.push(await connectStdio(options));
      await Promise.all(
        clients.map(async (client, process) => {
          for (let write = 0; write < WRITES; write += 1) {
            const outcome = await ok(client, 'memory.add', {
              file: 'MEMORY.md',
              section: 'Race',
              text: `process ${process} write ${write}`,
            });
            expect(outcome.kind).toBe('added');
          }
        }),
      );
      const first = clients[0] as Client;
      const page = await first.readResource({ uri: 'repomem://memory/MEMORY.md' });
      const text = (page.contents[0] as { text: string }).text;
      const bullets = text.split('\n').filter((line) => line.startsWith('- process '));
      expect(bullets.length).toBe(PROCESSES * WRITES);
      expect(new Set(bullets).size).toBe(PROCESSES * WRITES);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      workspace.cleanup();
    }
  });
});
