// Why: capabilities are promises, so each one that can be observed from outside is checked here:
// an atomic document is never seen torn, an atomic batch is never seen half-applied by one
// listing, read-your-writes holds across two instances of the store, and compare-and-swap holds
// between instances (native or emulated). A group whose promise is not declared, or that needs a
// second instance the caller did not provide, is skipped with the reason.
import type { MemoryStore } from '../store/contract.js';
import type { ConformanceHarness } from './conformance-support.js';
import { utf8 } from './conformance-support.js';

const LARGE_BYTES = 1024 * 1024;

function filled(byte: number, length: number): Uint8Array {
  return new Uint8Array(length).fill(byte);
}

/** Register the capability groups. */
export function registerCapabilityGroups(h: ConformanceHarness): void {
  const { describe, expect } = h.options.runner;
  const another = h.options.openAnother;
  const withAnother = async (body: (a: MemoryStore, b: MemoryStore) => Promise<void>): Promise<void> => {
    if (another === undefined) throw new Error('conformance: openAnother missing');
    const second = await another(h.store());
    try {
      await body(h.store(), second);
    } finally {
      await second.close();
    }
  };

  describe('capabilities', () => {
    h.testIf(
      (store) => store.capabilities.atomicDocument && store.capabilities.maxDocumentBytes >= LARGE_BYTES,
      'atomicDocument is not declared (or documents of 1 MiB are not accepted)',
      'atomicDocument: a reader never sees a document half-written',
      async () => {
        const old = filled(0x61, LARGE_BYTES);
        const next = filled(0x62, LARGE_BYTES);
        await h.seed({ 'big.md': old });
        let torn = 0;
        let writing = true;
        const reader = (async () => {
          while (writing) {
            const document = await h.store().get('big.md');
            const content = document?.content;
            if (content === undefined || content.byteLength !== LARGE_BYTES) torn++;
            else if (content[0] !== content[LARGE_BYTES - 1]) torn++;
          }
        })();
        for (let round = 0; round < 6; round++) await h.seed({ 'big.md': round % 2 === 0 ? next : old });
        writing = false;
        await reader;
        expect(torn, 'reads that saw a partial document').toBe(0);
      },
    );
    h.testIf(
      (store) => store.capabilities.atomicBatch,
      'atomicBatch is not declared',
      'atomicBatch: one listing never shows a batch half-applied',
      async () => {
        const generationOf = new Map<string, number>();
        const first = await h.seed({ 'a.md': 'a0\n', 'b.md': 'b0\n' });
        generationOf.set(`a.md ${first.versions['a.md']}`, 0);
        generationOf.set(`b.md ${first.versions['b.md']}`, 0);
        const snapshots: Array<Map<string, string>> = [];
        let writing = true;
        const lister = (async () => {
          while (writing) {
            const listing = await h.store().list();
            snapshots.push(new Map(listing.map((entry) => [entry.path, entry.version])));
          }
        })();
        for (let generation = 1; generation <= 15; generation++) {
          const result = await h.seed({ 'a.md': `a${generation}\n`, 'b.md': `b${generation}\n` });
          generationOf.set(`a.md ${result.versions['a.md']}`, generation);
          generationOf.set(`b.md ${result.versions['b.md']}`, generation);
        }
        writing = false;
        await lister;
        for (const snapshot of snapshots) {
          const a = generationOf.get(`a.md ${snapshot.get('a.md')}`);
          const b = generationOf.get(`b.md ${snapshot.get('b.md')}`);
          expect(a, 'both documents of one listing come from the same batch').toBe(b);
        }
      },
    );
    h.testIf(
      (store) => store.capabilities.readYourWrites && another !== undefined,
      another === undefined
        ? 'no openAnother given (a second instance on the same data)'
        : 'readYourWrites is not declared',
      'readYourWrites: a second instance sees an acknowledged write at once',
      async () => {
        await withAnother(async (a, b) => {
          for (let round = 0; round < 5; round++) {
            const content = utf8(`round ${round}\n`);
            await a.write([{ kind: 'put', path: 'MEMORY.md', content }]);
            const seen = await b.get('MEMORY.md');
            h.expectBytes(seen?.content, content, `round ${round} through the second instance`);
            const put = await a.state.put('cursor', round);
            expect(put.status).toBe('committed');
            expect((await b.state.get('cursor'))?.value).toBe(round);
          }
        });
      },
    );
    h.testIf(
      () => another !== undefined,
      'no openAnother given (a second instance on the same data)',
      'compareAndSwap: concurrent increments through two instances all land',
      async () => {
        await withAnother(async (a, b) => {
          await a.write([{ kind: 'put', path: 'count.md', content: utf8('0') }]);
          const increment = async (store: MemoryStore): Promise<void> => {
            for (;;) {
              const current = await store.get('count.md');
              const value = Number(new TextDecoder().decode(current?.content));
              const result = await store.write([
                {
                  kind: 'put',
                  path: 'count.md',
                  content: utf8(String(value + 1)),
                  expectedVersion: current?.version ?? null,
                },
              ]);
              if (result.status === 'committed') return;
            }
          };
          await Promise.all(Array.from({ length: 16 }, (_, index) => increment(index % 2 === 0 ? a : b)));
          const final = await b.get('count.md');
          expect(new TextDecoder().decode(final?.content)).toBe('16');
        });
      },
    );
    h.testIf(
      () => another !== undefined,
      'no openAnother given (a second instance on the same data)',
      'compareAndSwap: of two creators on two instances exactly one commits',
      async () => {
        await withAnother(async (a, b) => {
          const results = await Promise.all([
            a.write([{ kind: 'put', path: 'once.md', content: utf8('a'), expectedVersion: null }]),
            b.write([{ kind: 'put', path: 'once.md', content: utf8('b'), expectedVersion: null }]),
            a.state.put('once', 'a', null),
            b.state.put('once', 'b', null),
          ]);
          expect(results.slice(0, 2).filter((result) => result.status === 'committed')).toHaveLength(1);
          expect(results.slice(2).filter((result) => result.status === 'committed')).toHaveLength(1);
        });
      },
    );
  });
}
