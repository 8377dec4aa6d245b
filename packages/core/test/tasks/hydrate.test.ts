// Why: hydrate is where task memory meets the prompt: every source in parallel under its own
// timeout, a budget filled in a documented order with the drops explained, severity-aware
// failure, a prompt version that ignores memory, and receipts that can be stored and diffed.
import { describe, expect, it } from 'vitest';
import {
  CHARS_PER_TOKEN_ESTIMATOR,
  diffReceipts,
  getReceipt,
  hydrate,
  RepomemError,
  recordLearnings,
  renderPromptWithMemory,
  setPreference,
  writeEpisode,
} from '../../src/index.js';
import { sectionHeading } from '../../src/tasks/memory/hydrate-render.js';
import { faultyBackend, freshBackend, minuteClock, REPO, storeRule } from './support.js';

/** A prompt placeholder `${NAME}`. */
const slot = (name: string): string => `\${${name}}`;

async function seeded() {
  const backend = freshBackend();
  const now = minuteClock();
  await storeRule(backend, 'Never use `any` in TypeScript; use proper generics.');
  await recordLearnings({
    backend,
    repo: REPO,
    now,
    learnings: '**[Session cache]:** The session service in src/auth/session.ts caches tokens for 5 minutes.',
  });
  await writeEpisode({
    backend,
    repo: REPO,
    now,
    episode: {
      task_id: 'task-1',
      status: 'completed',
      description: 'Fix login token refresh in the session service',
      approach: 'Shortened the cache',
    },
  });
  await setPreference({ backend, repo: REPO, user: 'bob', preference: 'I prefer small, atomic PRs.', now });
  return backend;
}

describe('hydrate', () => {
  it('reads every source and renders one Markdown block in priority order', async () => {
    const backend = await seeded();
    const result = await hydrate({
      backend,
      repo: REPO,
      task: { id: 'task-2', description: 'Fix the session token cache', user: 'bob' },
    });
    expect(result.status).toBe('ok');
    expect(result.context.rules).toHaveLength(1);
    expect(result.context.knowledge[0]?.subject).toBe('Session cache');
    expect(result.context.episodes[0]?.id).toBe('task-1');
    expect(result.context.preferences[0]?.topic).toBe('pr-size');
    const headings = result.markdown.split('\n').filter((line) => line.startsWith('### '));
    expect(headings).toEqual([
      '### Review rules',
      '### Repository knowledge',
      '### Similar past tasks',
      '### Preferences of @bob',
    ]);
    expect(result.memoryAvailable).toBe(true);
    expect(result.receipt.sources.map((source) => [source.source, source.status])).toEqual([
      ['rules', 'ok'],
      ['verified', 'skipped'],
      ['knowledge', 'ok'],
      ['episodes', 'ok'],
      ['preferences', 'ok'],
    ]);
    expect(result.receipt.items.every((item) => item.included)).toBe(true);
  });

  it('a cold start (empty memory) is ok with an empty block', async () => {
    const result = await hydrate({ backend: freshBackend(), repo: REPO, task: { description: 'Anything' } });
    expect(result).toMatchObject({ status: 'ok', markdown: '', memoryAvailable: false, warnings: [], errors: [] });
  });

  it('returns within a hanging source’s timeout with the other sources’ results', async () => {
    const log = { aborted: 0 };
    const backend = faultyBackend(await seeded(), { episode: { kind: 'hang' } }, log);
    const timeoutMs = 150;
    const started = performance.now();
    const result = await hydrate({ backend, repo: REPO, task: { description: 'session token cache' }, timeoutMs });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(timeoutMs + 2000);
    expect(result.status).toBe('degraded');
    expect(result.warnings).toEqual([
      expect.objectContaining({ source: 'episodes', category: 'timeout', severity: 'warning' }),
    ]);
    expect(result.context.episodes).toEqual([]);
    expect(result.context.rules).toHaveLength(1);
    expect(result.context.knowledge).toHaveLength(1);
    expect(result.receipt.sources.find((source) => source.source === 'episodes')?.status).toBe('failed');
    expect(log.aborted).toBe(2); // the episode search and list were told to stop
  });

  it('the caller’s abort stops every source at once', async () => {
    const backend = faultyBackend(await seeded(), { rule: { kind: 'hang' }, knowledge: { kind: 'hang' } });
    const controller = new AbortController();
    const pending = hydrate({ backend, repo: REPO, task: { description: 'x' }, signal: controller.signal });
    controller.abort();
    const result = await pending;
    const stopped = result.warnings.map((warning) => warning.source);
    expect(stopped).toContain('knowledge');
    expect(stopped).toContain('rules');
    expect(result.warnings.every((warning) => warning.category === 'timeout')).toBe(true);
  });

  it('an outage or throttling degrades with a warning; a configuration error is an error even in fail-open mode', async () => {
    const base = await seeded();
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    const denied = Object.assign(new Error('not authorized to perform RetrieveMemoryRecords'), {
      name: 'AccessDeniedException',
    });
    const missingTable = Object.assign(new Error('relation "task_records" does not exist'), { code: '42P01' });
    const wrapped = new RepomemError('BACKEND_UNAVAILABLE', 'AgentCore list failed', { cause: denied });
    const result = await hydrate({
      backend: faultyBackend(base, {
        episode: { kind: 'throw', error: throttled },
        rule: { kind: 'throw', error: wrapped },
        knowledge: { kind: 'throw', error: missingTable },
        preference: {
          kind: 'throw',
          error: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
        },
      }),
      repo: REPO,
      task: { description: 'session', user: 'bob' },
    });
    expect(result.status).toBe('error');
    expect(result.warnings.map((w) => [w.source, w.category])).toEqual([
      ['episodes', 'throttled'],
      ['preferences', 'outage'],
    ]);
    expect(result.errors.map((e) => [e.source, e.category, e.severity])).toEqual([
      ['rules', 'configuration', 'error'],
      ['knowledge', 'configuration', 'error'],
    ]);
  });

  it('strict mode throws on any failure; an unusable repository name is an error, not an exception, in fail-open mode', async () => {
    const backend = faultyBackend(await seeded(), { episode: { kind: 'throw', error: new Error('socket hang up') } });
    await expect(hydrate({ backend, repo: REPO, task: { description: 'x' }, mode: 'strict' })).rejects.toMatchObject({
      code: 'BACKEND_UNAVAILABLE',
    });
    const open = await hydrate({ backend: freshBackend(), repo: 'not a repo', task: { description: 'x' } });
    expect(open.status).toBe('error');
    expect(open.errors[0]).toMatchObject({ source: 'repo', category: 'configuration' });
    await expect(
      hydrate({ backend: freshBackend(), repo: 'not a repo', task: { description: 'x' }, mode: 'strict' }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('a corrupt record is skipped and reported as an error; the rest of its source is used', async () => {
    const backend = await seeded();
    const broken = {
      kind: 'knowledge' as const,
      repo: REPO,
      id: 'k-broken',
      revision: 1,
      updated_at: '2026-03-02T00:00:00.000Z',
      text: 'session broken',
      data: { nonsense: true },
    };
    await backend.apply([{ record: broken, expectedRevision: null }]);
    const result = await hydrate({ backend, repo: REPO, task: { description: 'session' } });
    expect(result.errors).toEqual([expect.objectContaining({ source: 'knowledge', category: 'corrupt' })]);
    expect(result.context.knowledge).toHaveLength(1);
  });
});

describe('rule retrievals', () => {
  it('counts the task against active rules: ones given as relevant start over, a rule not relevant too long expires', async () => {
    const backend = freshBackend();
    const kept = await storeRule(backend, 'Never use `any` in TypeScript.');
    const unrelated = await hydrate({
      backend,
      repo: REPO,
      task: { id: 't0', description: 'Fix the cache eviction' },
      noteRuleRetrievals: true,
    });
    expect(unrelated.context.rules).toHaveLength(1);
    expect((await backend.get(REPO, 'rule', kept))?.data).toMatchObject({ tasks_since_retrieved: 1 });
    const first = await hydrate({
      backend,
      repo: REPO,
      task: { id: 't1', description: 'Type the TypeScript parser' },
      noteRuleRetrievals: true,
    });
    expect(first.errors).toEqual([]);
    expect((await backend.get(REPO, 'rule', kept))?.data).toMatchObject({
      tasks_since_retrieved: 0,
      last_retrieved_task: 't1',
    });
    const starved = await hydrate({
      backend,
      repo: REPO,
      task: { id: 't2', description: 'types' },
      budgetTokens: 0,
      noteRuleRetrievals: { expireAfterTasks: 1 },
    });
    expect(starved.errors).toEqual([]);
    expect((await backend.get(REPO, 'rule', kept))?.data.status).toBe('expired');
    const noId = await hydrate({ backend, repo: REPO, task: { description: 'x' }, noteRuleRetrievals: true });
    expect(noId.errors.map((error) => error.source)).toEqual(['rule-retrievals']);
  });
});

describe('hydrate budget', () => {
  it('shares the budget by relevance, drops the least relevant, then the oldest, first, and never offers what matches nothing', async () => {
    const backend = freshBackend();
    const now = minuteClock();
    const learn = (subject: string, fact: string) =>
      recordLearnings({ backend, repo: REPO, now, learnings: `**${subject}:** ${fact}` });
    await learn('Old cache note', `The cache layer is documented in docs/cache.md ${'and more words '.repeat(6)}`);
    await learn('New cache note', `The cache layer is documented in docs/cache.md ${'and more words '.repeat(6)}`);
    await learn('Unrelated', `The build uses pnpm workspaces ${'and more words '.repeat(6)}`);
    await learn('Very relevant', `Redis cache invalidation happens in src/cache/invalidate.ts ${'x '.repeat(30)}`);
    const full = await hydrate({ backend, repo: REPO, task: { description: 'redis cache invalidation' } });
    // Before: 'Unrelated' (no word of the task) was included too, filling the budget.
    expect(full.context.knowledge.map((k) => k.subject)).toEqual(['Very relevant', 'New cache note', 'Old cache note']);
    expect(full.dropped).toEqual([expect.objectContaining({ reason: 'below-floor' })]);
    const tokens = (subject: string) =>
      full.receipt.items.find((item) => item.id === full.context.knowledge.find((k) => k.subject === subject)?.id)
        ?.tokens ?? 0;
    const title = CHARS_PER_TOKEN_ESTIMATOR.estimate(`${full.markdown.split('\n\n### ')[0]}\n\n`);
    const heading = CHARS_PER_TOKEN_ESTIMATOR.estimate('### Repository knowledge\n\n');
    const room = title + heading + tokens('Very relevant') + tokens('New cache note');
    const tight = await hydrate({
      backend,
      repo: REPO,
      task: { description: 'redis cache invalidation' },
      budgetTokens: room,
    });
    expect(tight.context.knowledge.map((k) => k.subject)).toEqual(['Very relevant', 'New cache note']);
    expect(tight.dropped.map((item) => item.reason)).toEqual(['outranked', 'below-floor']);
    expect(CHARS_PER_TOKEN_ESTIMATOR.estimate(tight.markdown)).toBeLessThanOrEqual(room);
    expect(tight.receipt.used_tokens).toBeLessThanOrEqual(room);
    const none = await hydrate({ backend, repo: REPO, task: { description: 'cache' }, budgetTokens: 0 });
    expect(none.markdown).toBe('');
    expect(none.dropped).toHaveLength(4);
  });

  it('rules come before knowledge and preferences come last', async () => {
    const backend = freshBackend();
    await storeRule(backend, `Always write tests for cache code ${'please '.repeat(20)}`);
    await setPreference({ backend, repo: REPO, user: 'bob', preference: 'I prefer small PRs.' });
    const full = await hydrate({ backend, repo: REPO, task: { description: 'cache', user: 'bob' } });
    const ruleCost = full.receipt.items.find((item) => item.source === 'rules')?.tokens ?? 0;
    const estimate = CHARS_PER_TOKEN_ESTIMATOR.estimate;
    const budget =
      estimate(`${full.markdown.split('\n\n### ')[0]}\n\n`) + estimate(`${sectionHeading('rules')}\n\n`) + ruleCost;
    const result = await hydrate({
      backend,
      repo: REPO,
      task: { description: 'cache', user: 'bob' },
      budgetTokens: budget,
    });
    expect(result.context.rules).toHaveLength(1);
    expect(result.context.preferences).toHaveLength(0);
    expect(result.dropped.map((item) => item.source)).toEqual(['preferences']);
  });
});

describe('prompt version and receipts', () => {
  it('the prompt version ignores the memory block, which is inserted verbatim', async () => {
    const backend = await seeded();
    await recordLearnings({
      backend,
      repo: REPO,
      learnings: `**Placeholders:** Templates use ${slot('REQUEST_TEXT')} literally.`,
    });
    const a = await hydrate({ backend, repo: REPO, task: { description: 'session templates placeholders' } });
    const b = await hydrate({ backend: freshBackend(), repo: REPO, task: { description: 'session' } });
    const input = {
      base: `You are a coding agent on ${slot('REPO')}.`,
      template: `Task: ${slot('REQUEST_TEXT')}`,
      variables: { REPO: REPO, REQUEST_TEXT: 'do it' },
    };
    const withMemory = renderPromptWithMemory(input, a);
    const without = renderPromptWithMemory(input, b);
    expect(withMemory.promptVersion).toBe(without.promptVersion);
    expect(withMemory.text).toContain('## Memory from earlier tasks');
    expect(withMemory.text).toContain(`Templates use ${slot('REQUEST_TEXT')} literally.`);
    expect(without.text).not.toContain('Memory from earlier tasks');
  });

  it('records the receipt under the task and diffs two tasks’ receipts', async () => {
    const backend = await seeded();
    const now = minuteClock();
    const first = await hydrate({
      backend,
      repo: REPO,
      task: { id: 'task-a', description: 'session cache' },
      recordReceipt: true,
      promptVersion: 'sha256:aaa',
      commit: 'abc1234',
    });
    const stored = await getReceipt(backend, REPO, 'task-a');
    expect(stored).toEqual(first.receipt);
    await recordLearnings({
      backend,
      repo: REPO,
      now,
      learnings: '**[Session cache]:** The session cache now lasts 10 minutes.',
    });
    const second = await hydrate({
      backend,
      repo: REPO,
      task: { id: 'task-b', description: 'session cache' },
      recordReceipt: true,
      promptVersion: 'sha256:aaa',
      commit: 'def5678',
    });
    const diff = diffReceipts(first.receipt, second.receipt);
    // Scores are relative to the candidates (BM25 over them), so others may be `rescored`.
    const moved = diff.items.filter((item) => item.change === 'added' || item.change === 'removed');
    expect(moved.every((item) => item.source === 'knowledge')).toBe(true);
    expect(diff.items.filter((item) => item.change === 'added')).toHaveLength(1);
    expect(diff.items.filter((item) => item.change === 'removed')).toHaveLength(1);
    expect(diff.commit).toEqual({ before: 'abc1234', after: 'def5678' });
    expect(diff.promptVersion).toBeUndefined();
    const rescored = diff.items.filter((item) => item.change === 'rescored').length;
    expect(diff.unchanged + rescored).toBe(first.receipt.items.filter((item) => item.included).length - 1);
    // The episode written at task end links the receipt, so its outcome can be traced to this context.
    const episode = await writeEpisode({ backend, repo: REPO, episode: { task_id: 'task-a', status: 'completed' } });
    expect(episode.kind === 'written' && episode.episode.data.receipt_id).toBe('task-a');
  });
});
