import { beforeEach, describe, expect, it } from 'vitest';
import { snippetHash } from '../../src/citations/index.js';
import type { StoreMemoryInput } from '../../src/verified/index.js';
import { createMapCitationReader, type MapCitationReader, numberedLines } from '../citations/support.js';
import { dayIso, openFixture, type ServiceFixture } from './support.js';

const repo = 'acme/app';
const CONSTANT = 'export const API_VERSION = 3;';
const ROUTE = 'router.get("/v3/users", listUsers);';

describe('verified memory over the files a citation reader serves', () => {
  let files: MapCitationReader['files'];
  let fixture: ServiceFixture;
  beforeEach(() => {
    const reader = createMapCitationReader({
      'src/client/constants.ts': `${numberedLines(11)}${CONSTANT}\n`,
      'server/routes.ts': `${numberedLines(7)}${ROUTE}\n${numberedLines(3, 'after')}`,
    });
    files = reader.files;
    fixture = openFixture({ reader });
  });

  const apiMemory: StoreMemoryInput = {
    repo,
    subject: 'API version synchronization',
    fact: 'API version must match between client SDK and server routes.',
    citations: [
      { path: 'src/client/constants.ts', line_start: 12, line_end: 12 },
      { path: 'server/routes.ts', line_start: 8, line_end: 8 },
    ],
  };

  async function storeApiMemory() {
    const outcome = await fixture.service.store(apiMemory);
    if (outcome.kind !== 'stored') throw new Error(`not stored: ${JSON.stringify(outcome)}`);
    return outcome.memory;
  }

  it('store fills snippet hashes from the cited lines', async () => {
    const memory = await storeApiMemory();
    expect(memory.citations.map((citation) => citation.snippet_hash)).toEqual([
      snippetHash(CONSTANT),
      snippetHash(ROUTE),
    ]);
  });

  it('store rejects citations that do not hold now, and writes nothing', async () => {
    const outcome = await fixture.service.store({
      ...apiMemory,
      citations: [
        { path: 'src/client/constants.ts', line_start: 12, line_end: 12 },
        { path: 'src/client/constants.ts', line_start: 40, line_end: 41 },
        { path: 'src/missing.ts', line_start: 1, line_end: 1 },
      ],
    });
    expect(outcome.kind).toBe('rejected');
    if (outcome.kind === 'rejected') {
      expect(outcome.checks.map((check) => (check.kind === 'invalid' ? check.reason : check.kind))).toEqual([
        'valid',
        'out_of_range',
        'file_missing',
      ]);
    }
    expect(await fixture.store.list()).toEqual([]);
  });

  it('store rejects when the reader is unavailable', async () => {
    const offline = openFixture({
      reader: {
        name: 'github',
        read: async () => {
          throw new Error('ECONNREFUSED');
        },
      },
    });
    const outcome = await offline.service.store(apiMemory);
    expect(outcome.kind === 'rejected' ? outcome.checks.map((check) => check.kind) : []).toEqual([
      'unavailable',
      'unavailable',
    ]);
    expect(await offline.store.list()).toEqual([]);
  });

  it('store re-anchors a citation whose snippet hash is found at other lines', async () => {
    const outcome = await fixture.service.store({
      ...apiMemory,
      citations: [{ path: 'src/client/constants.ts', line_start: 3, line_end: 3, snippet_hash: snippetHash(CONSTANT) }],
    });
    expect(outcome.kind === 'stored' ? outcome.memory.citations[0]?.line_start : 0).toBe(12);
  });

  it('recall returns a valid memory, refreshed, with retrieved, verified_valid and refreshed events', async () => {
    const memory = await storeApiMemory();
    fixture.clock.advanceDays(3);
    const result = await fixture.service.recall(repo);
    expect(result.invalidated).toEqual([]);
    expect(result.unverified).toEqual([]);
    expect(result.memories).toHaveLength(1);
    expect(result.memories[0]).toMatchObject({
      id: memory.id,
      citations: memory.citations,
      refreshed_at: dayIso(3),
      expires_at: dayIso(31),
      verification_count: 1,
      revision: 2,
    });
    expect(await fixture.service.get(repo, memory.id)).toEqual(result.memories[0]);
    expect(fixture.published.map((event) => event.type)).toEqual([
      'created',
      'retrieved',
      'verified_valid',
      'refreshed',
    ]);
    expect((await fixture.service.stats(repo)).verificationSuccessRate).toBe(1);
  });

  it('recall re-anchors a memory whose cited lines moved', async () => {
    const memory = await storeApiMemory();
    files.set('src/client/constants.ts', `// header\n// more\n${numberedLines(11)}${CONSTANT}\n`);
    const result = await fixture.service.recall(repo);
    expect(result.memories).toHaveLength(1);
    const [constantCitation, routeCitation] = result.memories[0]?.citations ?? [];
    expect(constantCitation).toEqual({
      path: 'src/client/constants.ts',
      line_start: 14,
      line_end: 14,
      snippet_hash: snippetHash(CONSTANT),
    });
    expect(routeCitation).toEqual(memory.citations[1]);
    expect((await fixture.service.get(repo, memory.id))?.citations[0]?.line_start).toBe(14);
    const validEvent = (await fixture.service.events(repo)).find((event) => event.type === 'verified_valid');
    expect(validEvent?.details).toEqual({ relocated: 1 });
  });

  it('recall invalidates a memory whose snippet changed, naming the failing citation', async () => {
    const memory = await storeApiMemory();
    files.set('src/client/constants.ts', `${numberedLines(11)}export const API_VERSION = 4;\n`);
    const result = await fixture.service.recall(repo);
    expect(result.memories).toEqual([]);
    expect(result.invalidated).toHaveLength(1);
    const [entry] = result.invalidated;
    expect(entry?.memory.status).toBe('invalid');
    expect(entry?.memory.invalid_reason).toMatch(/src\/client\/constants\.ts: the snippet cited at line 12/);
    expect(entry?.checks.map((check) => check.kind)).toEqual(['invalid', 'valid']);
    expect((await fixture.service.get(repo, memory.id))?.status).toBe('invalid');
    const invalidEvent = (await fixture.service.events(repo)).find((event) => event.type === 'verified_invalid');
    expect(invalidEvent?.details?.failures).toEqual([
      { path: 'src/client/constants.ts', line_start: 12, line_end: 12, reason: 'snippet_missing' },
    ]);
    expect(await fixture.service.getRecent(repo)).toEqual([]);
    expect((await fixture.service.stats(repo)).verificationSuccessRate).toBe(0);
  });

  it('recall invalidates a memory whose cited file was deleted', async () => {
    await storeApiMemory();
    files.delete('server/routes.ts');
    const result = await fixture.service.recall(repo);
    expect(result.invalidated[0]?.memory.invalid_reason).toMatch(/server\/routes\.ts: no such file/);
    const reasons = result.invalidated[0]?.checks.map((check) =>
      check.kind === 'invalid' ? check.reason : check.kind,
    );
    expect(reasons).toEqual(['valid', 'file_missing']);
  });

  it('recall leaves memories it cannot verify untouched and unreturned', async () => {
    const memory = await storeApiMemory();
    const result = await fixture.service.recall(repo, { ref: 'main' });
    expect(result.memories).toEqual([]);
    expect(result.invalidated).toEqual([]);
    expect(result.unverified.map((entry) => entry.memory.id)).toEqual([memory.id]);
    expect(await fixture.service.get(repo, memory.id)).toEqual(memory);
  });

  it('recall skips expired memories and renews the expiry of the ones it verifies', async () => {
    await storeApiMemory();
    await fixture.service.store({ ...apiMemory, subject: 'route naming', fact: 'Routes are versioned.' });
    fixture.clock.advanceDays(20);
    const first = await fixture.service.recall(repo, { limit: 1 });
    expect(first.memories.map((memory) => memory.subject)).toEqual(['route naming']);
    fixture.clock.advanceDays(10);
    const second = await fixture.service.recall(repo);
    expect(second.memories.map((memory) => [memory.subject, memory.expires_at])).toEqual([
      ['route naming', dayIso(58)],
    ]);
  });

  it('readCitation and verifyCitations read the tree', async () => {
    const check = await fixture.service.readCitation(repo, { path: 'server/routes.ts', line_start: 8, line_end: 8 });
    expect(check).toMatchObject({ kind: 'valid', content: ROUTE });
    const result = await fixture.service.verifyCitations(repo, [
      { path: 'server/routes.ts', line_start: 8, line_end: 9 },
      { path: 'server/routes.ts', line_start: 12, line_end: 12 },
    ]);
    expect(result).toMatchObject({ valid: false, valid_count: 1, invalid_count: 1 });
    const bad = await fixture.service
      .verifyCitations(repo, [{ path: 'a.ts', line_start: 2, line_end: 1 }])
      .catch((error: { code: string }) => error.code);
    expect(bad).toBe('INVALID_ARGUMENT');
  });
});
