import { describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/store/index.js';
import { createDocumentRecordBackend, openVerifiedMemory, type StoreMemoryInput } from '../../src/verified/index.js';
import { CITATION, dayIso, openFixture, sequentialIds, thrown } from './support.js';

const repo = 'acme/app';
const base: StoreMemoryInput = {
  repo,
  subject: 'API version synchronization',
  fact: 'API version must match between client SDK, server routes, and documentation.',
  citations: [CITATION],
};

describe('store: bad input is refused and nothing is written', () => {
  const cases: [string, unknown, RegExp][] = [
    ['no citations', { ...base, citations: [] }, /at least one citation/],
    ['missing citations', { ...base, citations: undefined }, /citations/],
    [
      'inverted range',
      { ...base, citations: [{ path: 'a.ts', line_start: 5, line_end: 2 }] },
      /line_end must be >= line_start/,
    ],
    ['line 0', { ...base, citations: [{ path: 'a.ts', line_start: 0, line_end: 2 }] }, /line_start must be >= 1/],
    ['a path with ..', { ...base, citations: [{ path: '../etc/passwd', line_start: 1, line_end: 1 }] }, /escapes/],
    ['an absolute path', { ...base, citations: [{ path: '/etc/passwd', line_start: 1, line_end: 1 }] }, /relative/],
    ['an empty fact', { ...base, fact: '   ' }, /fact is empty/],
    ['an oversized fact', { ...base, fact: 'x'.repeat(3201) }, /fact is longer than 3200 characters/],
    ['an empty subject', { ...base, subject: '' }, /subject is empty/],
    ['a bad repo slug', { ...base, repo: 'acme' }, /expected "owner\/repo"/],
    ['a repo slug with ..', { ...base, repo: 'acme/..' }, /repo/],
    ['an unknown field', { ...base, colour: 'red' }, /colour|unrecognized/i],
    ['a bad snippet hash', { ...base, citations: [{ ...CITATION, snippet_hash: 'md5:x' }] }, /snippet_hash/],
    ['not an object', null, /expected an object/],
  ];
  for (const [name, input, message] of cases) {
    it(`refuses ${name}`, async () => {
      const { service, store } = openFixture();
      const error = await thrown(() => service.store(input as StoreMemoryInput));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toMatch(message);
      expect(await store.list()).toEqual([]);
    });
  }

  it('refuses a credential in any text field with SECRET_DETECTED, never echoing it (every backend: checked before the backend)', async () => {
    const token = ['gh', 'p_', 'R8vXk2mQ9tL4wZ7pB3nC6yH1sD5fG0jK2aE4'].join('');
    for (const input of [
      { ...base, fact: `Deploys use ${token}` },
      { ...base, subject: `token ${token}` },
      { ...base, reason: `seen ${token}` },
    ]) {
      const { service, store } = openFixture();
      const error = await thrown(() => service.store(input));
      expect(error.code).toBe('SECRET_DETECTED');
      expect(error.message).toMatch(/^memory (fact|subject|reason) line 1 .*rule github-pat/);
      expect(error.message).not.toContain(token.slice(4));
      expect(await store.list()).toEqual([]);
    }
  });

  it('refuses bad arguments of the other operations', async () => {
    const { service } = openFixture();
    expect((await thrown(() => service.getRecent('nope'))).code).toBe('INVALID_ARGUMENT');
    expect((await thrown(() => service.getRecent(repo, 0))).code).toBe('INVALID_ARGUMENT');
    expect((await thrown(() => service.get(repo, 'not-a-uuid'))).code).toBe('INVALID_ARGUMENT');
    expect((await thrown(() => service.refresh('a/b/c', '00000000-0000-4000-8000-000000000001'))).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect((await thrown(() => service.searchByPath(repo, '../x'))).code).toBe('INVALID_PATH');
    expect((await thrown(() => service.search(repo, 42 as unknown as string))).code).toBe('INVALID_ARGUMENT');
    expect(() =>
      openVerifiedMemory({ backend: createDocumentRecordBackend(createInMemoryStore()), maxAgeDays: 0 }),
    ).toThrow(/maxAgeDays/);
  });
});

describe('store', () => {
  it('stores an active memory with defaults, expiring after 28 days, and emits created', async () => {
    const { service, published } = openFixture();
    const outcome = await service.store({ ...base, reason: 'Prevents breakages.', created_by: 'coding-agent' });
    expect(outcome.kind).toBe('stored');
    if (outcome.kind !== 'stored') return;
    expect(outcome.superseded).toEqual([]);
    expect(outcome.memory).toEqual({
      id: '00000000-0000-4000-8000-000000000001',
      repo,
      subject: base.subject,
      fact: base.fact,
      scope: null,
      citations: [CITATION],
      reason: 'Prevents breakages.',
      created_by: 'coding-agent',
      created_at: dayIso(0),
      refreshed_at: dayIso(0),
      expires_at: dayIso(28),
      status: 'active',
      superseded_by: null,
      supersedes: null,
      invalid_reason: null,
      verification_count: 0,
      revision: 1,
    });
    expect(await service.get(repo, outcome.memory.id)).toEqual(outcome.memory);
    expect(published.map((event) => event.type)).toEqual(['created']);
    expect(await service.events(repo)).toEqual(published);
  });

  it('honours maxAgeDays', async () => {
    const { service } = openFixture({ maxAgeDays: 7 });
    const outcome = await service.store(base);
    expect(outcome.kind === 'stored' ? outcome.memory.expires_at : '').toBe(dayIso(7));
  });
});

describe('contradictions (seed 004)', () => {
  it('a newer memory with the same subject and scope supersedes the older one (Jest → Vitest)', async () => {
    const { service, clock, published } = openFixture();
    const jest = await service.store({ ...base, subject: 'test framework', fact: 'the team uses Jest for testing' });
    clock.advanceMinutes(5);
    const vitest = await service.store({ ...base, subject: 'Test  Framework', fact: 'the team migrated to Vitest' });
    if (jest.kind !== 'stored' || vitest.kind !== 'stored') throw new Error('not stored');
    expect(vitest.memory.supersedes).toBe(jest.memory.id);
    expect(vitest.superseded.map((memory) => memory.id)).toEqual([jest.memory.id]);
    const old = await service.get(repo, jest.memory.id);
    expect(old?.status).toBe('superseded');
    expect(old?.superseded_by).toBe(vitest.memory.id);
    expect((await service.getRecent(repo)).map((memory) => memory.fact)).toEqual(['the team migrated to Vitest']);
    expect(published.slice(0, 3).map((event) => [event.type, event.memory_id])).toEqual([
      ['created', jest.memory.id],
      ['created', vitest.memory.id],
      ['superseded', jest.memory.id],
    ]);
  });

  it('memories with the same subject in different scopes coexist (Redux in src/legacy/, Context in src/v2/)', async () => {
    const { service } = openFixture();
    await service.store({
      ...base,
      subject: 'state management',
      fact: 'Use Redux for state management',
      scope: 'src/legacy/',
    });
    await service.store({ ...base, subject: 'state management', fact: 'Use React Context', scope: 'src/v2/' });
    await service.store({ ...base, subject: 'state management', fact: 'Prefer local state' });
    const active = await service.getRecent(repo);
    expect(active.map((memory) => memory.fact).sort()).toEqual([
      'Prefer local state',
      'Use React Context',
      'Use Redux for state management',
    ]);
    const again = await service.store({
      ...base,
      subject: 'State management',
      fact: 'Use Zustand',
      scope: 'src/legacy',
    });
    expect(again.kind === 'stored' ? again.superseded.map((memory) => memory.fact) : []).toEqual([
      'Use Redux for state management',
    ]);
    expect((await service.getRecent(repo)).map((memory) => memory.fact).sort()).toEqual([
      'Prefer local state',
      'Use React Context',
      'Use Zustand',
    ]);
  });

  it('two concurrent stores of the same subject end with exactly one active memory', async () => {
    const { service } = openFixture();
    const outcomes = await Promise.all([
      service.store({ ...base, subject: 'test framework', fact: 'Jest' }),
      service.store({ ...base, subject: 'test framework', fact: 'Vitest' }),
    ]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['stored', 'stored']);
    expect(await service.getRecent(repo)).toHaveLength(1);
  });

  it('two services over two backends of the same store racing on a subject end with one active memory', async () => {
    const store = createInMemoryStore();
    const ids = sequentialIds();
    const open = () => openVerifiedMemory({ backend: createDocumentRecordBackend(store), newId: ids });
    const [first, second] = [open(), open()];
    await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        (index % 2 === 0 ? first : second).store({ ...base, subject: 'test framework', fact: `choice ${index}` }),
      ),
    );
    const active = await first.getRecent(repo);
    expect(active).toHaveLength(1);
    const all = await createDocumentRecordBackend(store).recent({ repo });
    expect(all).toHaveLength(6);
    for (const memory of all) {
      if (memory.id === active[0]?.id) continue;
      expect(memory.status).toBe('superseded');
      expect(memory.superseded_by).not.toBeNull();
    }
  });
});

describe('supersede, refresh, invalidate, logApplied', () => {
  it('supersede keeps the chain and emits corrected, created and superseded', async () => {
    const { service, clock, published } = openFixture();
    const a = await service.store({ ...base, fact: 'v1' });
    if (a.kind !== 'stored') throw new Error('not stored');
    clock.advanceMinutes(1);
    const b = await service.supersede(repo, a.memory.id, { subject: base.subject, fact: 'v2', citations: [CITATION] });
    if (b.kind !== 'superseded') throw new Error(b.kind);
    clock.advanceMinutes(1);
    const c = await service.supersede(repo, b.replacement.id, {
      subject: base.subject,
      fact: 'v3',
      citations: [CITATION],
    });
    if (c.kind !== 'superseded') throw new Error(c.kind);
    expect(b.previous).toMatchObject({ id: a.memory.id, status: 'superseded', superseded_by: b.replacement.id });
    expect(c.replacement.supersedes).toBe(b.replacement.id);
    expect(b.replacement.supersedes).toBe(a.memory.id);
    expect((await service.get(repo, b.replacement.id))?.superseded_by).toBe(c.replacement.id);
    expect((await service.getRecent(repo)).map((memory) => memory.fact)).toEqual(['v3']);
    expect(published.slice(1, 4).map((event) => [event.type, event.memory_id])).toEqual([
      ['corrected', a.memory.id],
      ['created', b.replacement.id],
      ['superseded', a.memory.id],
    ]);
    expect(
      await service.supersede(repo, a.memory.id, { subject: 'x', fact: 'y', citations: [CITATION] }),
    ).toMatchObject({
      kind: 'not_active',
    });
    const missing = '00000000-0000-4000-8000-0000000000ff';
    expect(await service.supersede(repo, missing, { subject: 'x', fact: 'y', citations: [CITATION] })).toEqual({
      kind: 'not_found',
      id: missing,
    });
    expect(
      (await thrown(() => service.supersede(repo, c.replacement.id, { subject: 'x', fact: '', citations: [CITATION] })))
        .code,
    ).toBe('INVALID_ARGUMENT');
  });

  it('refresh bumps refreshed_at, verification_count and expiry; invalidate records the reason', async () => {
    const { service, clock } = openFixture();
    const stored = await service.store(base);
    if (stored.kind !== 'stored') throw new Error('not stored');
    clock.advanceDays(10);
    const refreshed = await service.refresh(repo, stored.memory.id);
    expect(refreshed).toMatchObject({
      kind: 'changed',
      memory: { refreshed_at: dayIso(10), expires_at: dayIso(38), verification_count: 1, revision: 2 },
    });
    expect((await thrown(() => service.invalidate(repo, stored.memory.id, ' '))).code).toBe('INVALID_ARGUMENT');
    const invalid = await service.invalidate(repo, stored.memory.id, 'the constant moved to config.ts');
    expect(invalid).toMatchObject({
      kind: 'changed',
      memory: { status: 'invalid', invalid_reason: 'the constant moved to config.ts', revision: 3 },
    });
    expect(await service.refresh(repo, stored.memory.id)).toMatchObject({ kind: 'not_active' });
    expect(await service.getRecent(repo)).toEqual([]);
    const events = await service.events(repo, { memoryId: stored.memory.id });
    expect(events.map((event) => event.type)).toEqual(['created', 'refreshed', 'verified_invalid']);
    expect(events[2]?.details).toEqual({ reason: 'the constant moved to config.ts' });
    const missing = '00000000-0000-4000-8000-0000000000ff';
    expect(await service.refresh(repo, missing)).toEqual({ kind: 'not_found', id: missing });
  });

  it('logApplied emits applied with details and renews the expiry', async () => {
    const { service, clock } = openFixture();
    const stored = await service.store(base);
    if (stored.kind !== 'stored') throw new Error('not stored');
    clock.advanceDays(20);
    const applied = await service.logApplied(repo, stored.memory.id, { task: 'PR #12' });
    expect(applied).toMatchObject({ kind: 'changed', memory: { expires_at: dayIso(48), verification_count: 0 } });
    const events = await service.events(repo, { limit: 1 });
    expect(events).toEqual([
      { type: 'applied', memory_id: stored.memory.id, repo, at: dayIso(20), details: { task: 'PR #12' } },
    ]);
    expect((await thrown(() => service.logApplied(repo, stored.memory.id, [] as never))).code).toBe('INVALID_ARGUMENT');
  });
});

describe('expiry', () => {
  it('expired memories are not returned by getRecent, search or searchByPath; refresh renews', async () => {
    const { service, clock } = openFixture();
    const kept = await service.store({ ...base, subject: 'kept', fact: 'Kept by refresh.' });
    await service.store({ ...base, subject: 'dropped', fact: 'Dropped after 28 days.' });
    if (kept.kind !== 'stored') throw new Error('not stored');
    clock.advanceDays(27);
    expect(await service.getRecent(repo)).toHaveLength(2);
    await service.refresh(repo, kept.memory.id);
    clock.advanceDays(1);
    expect((await service.getRecent(repo)).map((memory) => memory.subject)).toEqual(['kept']);
    expect((await service.search(repo, 'days')).map((memory) => memory.subject)).toEqual([]);
    expect((await service.search(repo, 'refresh')).map((memory) => memory.subject)).toEqual(['kept']);
    expect((await service.searchByPath(repo, CITATION.path)).map((memory) => memory.subject)).toEqual(['kept']);
    expect((await service.stats(repo)).expired).toBe(1);
    clock.advanceDays(27);
    expect(await service.getRecent(repo)).toEqual([]);
  });
});

describe('telemetry and stats', () => {
  it('stores events, calls the subscriber after storing them, and ignores a throwing subscriber', async () => {
    const backend = createDocumentRecordBackend(createInMemoryStore());
    const seen: string[] = [];
    const service = openVerifiedMemory({
      backend,
      onEvent: (event) => {
        seen.push(event.type);
        throw new Error('subscriber bug');
      },
    });
    const stored = await service.store(base);
    expect(stored.kind).toBe('stored');
    await service.getRecent(repo);
    expect(seen).toEqual(['created', 'retrieved']);
    expect((await backend.events({ repo })).map((event) => event.type)).toEqual(['created', 'retrieved']);
    const rejecting = openVerifiedMemory({ backend, onEvent: () => Promise.reject(new Error('async bug')) as never });
    expect((await rejecting.store({ ...base, subject: 'other' })).kind).toBe('stored');
  });

  it('stats counts statuses, events and the verification success rate', async () => {
    const { service } = openFixture();
    expect((await service.stats(repo)).verificationSuccessRate).toBeNull();
    const a = await service.store({ ...base, subject: 'a' });
    await service.store({ ...base, subject: 'b' });
    if (a.kind !== 'stored') throw new Error('not stored');
    await service.invalidate(repo, a.memory.id, 'wrong');
    const stats = await service.stats(repo);
    expect(stats.byStatus).toEqual({ active: 1, invalid: 1, superseded: 0 });
    expect(stats.events.created).toBe(2);
    expect(stats.verificationSuccessRate).toBe(0);
  });

  it('recall, readCitation and verifyCitations need a citation reader', async () => {
    const { service } = openFixture();
    for (const action of [
      () => service.recall(repo),
      () => service.readCitation(repo, CITATION),
      () => service.verifyCitations(repo, [CITATION]),
    ]) {
      const error = await thrown(action);
      expect(error.code).toBe('UNSUPPORTED');
      expect(error.message).toMatch(/citation reader/);
    }
  });
});

describe('repository isolation', () => {
  it('memories of one repository never appear in, supersede or change another', async () => {
    const { service } = openFixture();
    const mine = await service.store({ ...base, subject: 'test framework', fact: 'Jest here.' });
    const theirs = await service.store({
      ...base,
      repo: 'acme/app-2',
      subject: 'test framework',
      fact: 'Vitest there.',
    });
    if (mine.kind !== 'stored' || theirs.kind !== 'stored') throw new Error('not stored');
    expect(theirs.superseded).toEqual([]);
    expect((await service.getRecent(repo)).map((memory) => memory.fact)).toEqual(['Jest here.']);
    expect(await service.search(repo, 'vitest')).toEqual([]);
    expect((await service.searchByPath('acme/app-2', CITATION.path)).map((memory) => memory.fact)).toEqual([
      'Vitest there.',
    ]);
    expect(await service.get('acme/app-2', mine.memory.id)).toBeUndefined();
    expect(await service.refresh('acme/app-2', mine.memory.id)).toEqual({ kind: 'not_found', id: mine.memory.id });
    expect(await service.invalidate('acme/app-2', mine.memory.id, 'x')).toMatchObject({ kind: 'not_found' });
    expect((await service.events(repo)).every((event) => event.repo === repo)).toBe(true);
    expect((await service.stats('acme/app-2')).byStatus.active).toBe(1);
  });
});
