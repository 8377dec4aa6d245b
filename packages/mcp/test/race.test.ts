// Why: every client window starts its own server process, so several processes write one store
// at once; the reference memory server loses writes then. Four server processes, each driven by
// its own client, write 50 times each to one store (40 bullets and 10 verified memories): all 200
// must land, on every store kind.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { connectStdio, makeWorkspace, ok, STORE_KINDS } from './helpers.js';

const PROCESSES = 4;
const WRITES = 50;
/** Every fifth write stores a verified memory; the others add a bullet. */
const isVerified = (write: number): boolean => write % 5 === 4;

describe.each(STORE_KINDS)('four server processes on one %s store', (kind) => {
  it(`${PROCESSES} x ${WRITES} writes: every one lands`, { timeout: 60_000 }, async () => {
    const workspace = makeWorkspace(kind);
    const options = {
      storeSpec: workspace.storeSpec,
      repo: 'acme/app',
      citationReader: workspace.source,
      watchIntervalMs: 0,
    };
    const clients: Client[] = [];
    try {
      for (let index = 0; index < PROCESSES; index += 1) clients.push(await connectStdio(options));
      await Promise.all(
        clients.map(async (client, process) => {
          for (let write = 0; write < WRITES; write += 1) {
            const outcome = isVerified(write)
              ? await ok(client, 'memory.store', {
                  subject: `process ${process} write ${write}`,
                  fact: 'A memory written during the race.',
                  citations: [{ path: 'src/version.ts', line_start: 1, line_end: 2 }],
                })
              : await ok(client, 'memory.add', {
                  file: 'MEMORY.md',
                  section: 'Race',
                  text: `process ${process} write ${write}`,
                });
            expect(outcome.kind).toBe(isVerified(write) ? 'stored' : 'added');
          }
        }),
      );
      const first = clients[0] as Client;
      const page = await first.readResource({ uri: 'repomem://memory/MEMORY.md' });
      const text = (page.contents[0] as { text: string }).text;
      const bullets = text.split('\n').filter((line) => line.startsWith('- process '));
      const verifiedWrites = PROCESSES * (WRITES / 5);
      expect(new Set(bullets).size).toBe(PROCESSES * WRITES - verifiedWrites);
      const { memories } = await ok(first, 'memory.get_recent', { limit: 1000 });
      expect(new Set((memories as { subject: string }[]).map((memory) => memory.subject)).size).toBe(verifiedWrites);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
      workspace.cleanup();
    }
  });
});
