// Why: task-end writes must be idempotent by task id, survive brief outages (3 attempts with
// backoff) without ever failing the task, leave a minimal episode when the agent wrote none,
// and carry the outcome signal hydration ranks by.
import { describe, expect, it } from 'vitest';
import {
  ensureEpisode,
  getEpisode,
  hydrate,
  listEpisodes,
  recordEpisodeOutcome,
  type TaskRecordBackend,
  writeEpisode,
} from '../../src/index.js';
import { freshBackend, minuteClock, REPO } from './support.js';

/** `backend` whose `apply` fails with `error` for the first `failures` calls. */
function flakyWrites(
  backend: TaskRecordBackend,
  failures: number,
  error: unknown,
): TaskRecordBackend & { calls: number } {
  const wrapped = {
    ...backend,
    name: backend.name,
    calls: 0,
    apply: async (writes: Parameters<TaskRecordBackend['apply']>[0]) => {
      wrapped.calls += 1;
      if (wrapped.calls <= failures) throw error;
      return backend.apply(writes);
    },
    get: backend.get.bind(backend),
    list: backend.list.bind(backend),
    search: backend.search.bind(backend),
    delete: backend.delete.bind(backend),
    close: backend.close.bind(backend),
  };
  return wrapped;
}

const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('episodes', () => {
  it('writing the same episode twice leaves one, unchanged; more information updates it', async () => {
    const backend = freshBackend();
    const now = minuteClock();
    const episode = {
      task_id: 'task-1',
      status: 'completed' as const,
      description: 'Add retries',
      files_changed: ['src/a.ts'],
    };
    const first = await writeEpisode({ backend, repo: REPO, now, episode });
    expect(first.kind).toBe('written');
    const again = await writeEpisode({ backend, repo: REPO, now, episode });
    expect(again.kind).toBe('unchanged');
    const more = await writeEpisode({
      backend,
      repo: REPO,
      now,
      episode: { ...episode, approach: 'p-retry around fetch' },
    });
    expect(more.kind).toBe('written');
    const stored = await getEpisode(backend, REPO, 'task-1');
    expect(stored?.data).toMatchObject({
      description: 'Add retries',
      approach: 'p-retry around fetch',
      minimal: false,
    });
    expect(stored?.revision).toBe(2);
    expect(await listEpisodes(backend, REPO)).toHaveLength(1);
  });

  it('ensureEpisode writes a minimal episode only when none exists, and a full one replaces it', async () => {
    const backend = freshBackend();
    const minimal = await ensureEpisode({
      backend,
      repo: REPO,
      episode: { task_id: 't', status: 'timed_out', duration_s: 900 },
    });
    expect(minimal.kind).toBe('written');
    const full = await writeEpisode({
      backend,
      repo: REPO,
      episode: { task_id: 't', status: 'completed', approach: 'done' },
    });
    expect(full.kind).toBe('written');
    if (full.kind !== 'written') return;
    expect(full.episode.data.minimal).toBe(false);
    expect(full.episode.data.duration_s).toBeUndefined();
    const fallback = await ensureEpisode({ backend, repo: REPO, episode: { task_id: 't', status: 'failed' } });
    expect(fallback.kind).toBe('unchanged');
    expect((await getEpisode(backend, REPO, 't'))?.data.status).toBe('completed');
  });

  it('retries a transient failure with backoff (3 attempts) and succeeds', async () => {
    const backend = flakyWrites(freshBackend(), 2, outage);
    const delays: number[] = [];
    const result = await writeEpisode({
      backend,
      repo: REPO,
      episode: { task_id: 'task-1', status: 'completed' },
      sleep: async (ms) => {
        delays.push(ms);
      },
    });
    expect(result).toMatchObject({ kind: 'written', attempts: 3 });
    expect(delays).toEqual([200, 400]);
  });

  it('gives up after 3 attempts without throwing (fail open), or throws in strict mode', async () => {
    const sleep = async () => {};
    const failing = flakyWrites(freshBackend(), 99, outage);
    const result = await writeEpisode({
      backend: failing,
      repo: REPO,
      sleep,
      episode: { task_id: 'x', status: 'failed' },
    });
    expect(result).toMatchObject({ kind: 'failed', attempts: 3, failure: { category: 'outage', severity: 'warning' } });
    await expect(
      writeEpisode({
        backend: flakyWrites(freshBackend(), 99, outage),
        repo: REPO,
        sleep,
        strict: true,
        episode: { task_id: 'x', status: 'failed' },
      }),
    ).rejects.toBe(outage);
  });

  it('does not retry a configuration error', async () => {
    const denied = Object.assign(new Error('denied'), { name: 'AccessDeniedException' });
    const backend = flakyWrites(freshBackend(), 99, denied);
    const result = await writeEpisode({
      backend,
      repo: REPO,
      sleep: async () => {},
      episode: { task_id: 'x', status: 'failed' },
    });
    expect(result).toMatchObject({
      kind: 'failed',
      attempts: 1,
      failure: { category: 'configuration', severity: 'error' },
    });
  });

  it('refuses an invalid episode as misuse (not a memory failure)', async () => {
    await expect(
      writeEpisode({ backend: freshBackend(), repo: REPO, episode: { task_id: 'bad id', status: 'completed' } }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(
      writeEpisode({ backend: freshBackend(), repo: REPO, episode: { task_id: 't', status: 'done' as 'completed' } }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('keeps an episode with many files within one record', async () => {
    const files = Array.from({ length: 150 }, (_, index) => `src/${'deep/'.repeat(20)}file-${index}.ts`);
    const result = await writeEpisode({
      backend: freshBackend(),
      repo: REPO,
      episode: { task_id: 't', status: 'completed', files_changed: files },
    });
    expect(result.kind).toBe('written');
    if (result.kind !== 'written') return;
    const kept = result.episode.data.files_changed?.length ?? 0;
    expect(kept + result.episode.data.files_omitted).toBe(150);
    expect(kept).toBeLessThan(100);
  });
});

describe('outcome signals', () => {
  it('merged marks positive, closed negative, found by task or pull request; redelivery changes nothing', async () => {
    const backend = freshBackend();
    await writeEpisode({ backend, repo: REPO, episode: { task_id: 'a', status: 'completed', pr_number: 7 } });
    await writeEpisode({
      backend,
      repo: REPO,
      episode: { task_id: 'b', status: 'completed', pr_url: 'https://github.com/acme/app/pull/8' },
    });
    const merged = await recordEpisodeOutcome({ backend, repo: REPO, target: { prNumber: 7 }, merged: true });
    expect(merged.kind === 'recorded' && merged.episodes[0]?.data.outcome).toBe('positive');
    const revision = (await getEpisode(backend, REPO, 'a'))?.revision;
    await recordEpisodeOutcome({ backend, repo: REPO, target: { prNumber: 7 }, merged: true });
    expect((await getEpisode(backend, REPO, 'a'))?.revision).toBe(revision);
    await recordEpisodeOutcome({
      backend,
      repo: REPO,
      target: { prUrl: 'https://github.com/acme/app/pull/8' },
      merged: false,
    });
    expect((await getEpisode(backend, REPO, 'b'))?.data.outcome).toBe('negative');
    expect(await recordEpisodeOutcome({ backend, repo: REPO, target: { prNumber: 99 }, merged: true })).toEqual({
      kind: 'not_found',
    });
    const rewritten = await writeEpisode({
      backend,
      repo: REPO,
      episode: { task_id: 'a', status: 'completed', approach: 'more' },
    });
    expect(rewritten.kind === 'written' && rewritten.episode.data.outcome).toBe('positive');
  });

  it('hydration ranks a pull request closed unmerged by relevance like any episode, its outcome in its line', async () => {
    const backend = freshBackend();
    const now = minuteClock();
    const episodes = {
      closed: 'Add retries to the billing webhook with a fixed delay',
      merged: 'Rename the billing webhook handler',
      plain: 'Update the README badges',
    };
    for (const [id, description] of Object.entries(episodes)) {
      await writeEpisode({ backend, repo: REPO, now, episode: { task_id: id, status: 'completed', description } });
    }
    await recordEpisodeOutcome({ backend, repo: REPO, target: { taskId: 'merged' }, merged: true });
    await recordEpisodeOutcome({ backend, repo: REPO, target: { taskId: 'closed' }, merged: false });
    // Before: a closed pull request lost 0.25 and ranked last; its lesson is often what the task needs.
    const result = await hydrate({ backend, repo: REPO, task: { description: 'billing webhook retries' } });
    expect(result.context.episodes.map((episode) => episode.id)).toEqual(['closed', 'merged']);
    expect(result.markdown).toContain('Task closed (completed, PR closed unmerged)');
    expect(result.markdown).toContain('Task merged (completed, PR merged)');
    expect(result.dropped).toEqual([expect.objectContaining({ id: 'plain', reason: 'below-floor' })]);
  });
});
