// Why: a few task-memory guarantees depend on how a backend keeps ids and revisions, so they are
// checked on every backend through the real life-cycle functions: distinct GitHub logins never
// share preference records (an app `renovate[bot]` and the user `renovate-bot`), and a webhook
// delivery replayed or arriving late never rewrites an episode's outcome (delivery ids are kept
// in the store; outcomes are ordered by the pull request's own timestamps).
import { rememberDelivery, wasDelivered } from '../tasks/memory/delivery-log.js';
import { getEpisode, recordEpisodeOutcome, writeEpisode } from '../tasks/memory/episodes.js';
import { listPreferences, setPreference } from '../tasks/memory/preferences.js';
import type { TaskRecordBackend } from '../tasks/record-backend.js';
import { TASK_CONFORMANCE_OTHER_REPOS, TASK_CONFORMANCE_REPO } from './task-record-conformance-fixtures.js';
import type { TaskRecordBackendHarness } from './task-record-conformance-types.js';

const repo = TASK_CONFORMANCE_REPO;
const now = () => new Date('2026-03-01T12:00:00.000Z');

/** Register the task-memory identity and ordering group. */
export function registerTaskMemoryGroups<B extends TaskRecordBackend>(h: TaskRecordBackendHarness<B>): void {
  const { describe, expect } = h.options.runner;

  describe('task memory on this backend', () => {
    h.test('logins an id mapping could fold (renovate[bot], renovate-bot) keep distinct preferences', async () => {
      const backend = h.backend();
      await setPreference({
        backend,
        repo,
        user: 'renovate[bot]',
        topic: 'pr-size',
        preference: 'One package per PR.',
        now,
      });
      await setPreference({
        backend,
        repo,
        user: 'Renovate-Bot',
        topic: 'tests',
        preference: 'Run the unit tests.',
        now,
      });
      const app = await listPreferences(backend, repo, 'renovate[bot]');
      const user = await listPreferences(backend, repo, 'renovate-bot');
      expect(app.map((p) => [p.data.user, p.data.preference])).toEqual([['renovate[bot]', 'One package per PR.']]);
      expect(user.map((p) => [p.data.user, p.data.preference])).toEqual([['Renovate-Bot', 'Run the unit tests.']]);
      // Reversible: the id names the login it belongs to (GitHub logins are case-insensitive).
      expect(app[0]?.id).toBe('users/renovate@bot/pr-size');
      expect(user[0]?.id).toBe('users/renovate-bot/tests');
    });

    h.test('an app preference written under the old -bot mapping is still read, by the app only', async () => {
      const backend = h.backend();
      const data = {
        user: 'renovate[bot]',
        topic: 'docs',
        preference: 'Link the changelog.',
        source: 'explicit',
        set_at: now().toISOString(),
      };
      const legacy = {
        kind: 'preference' as const,
        repo,
        id: 'users/renovate-bot/docs',
        revision: 1,
        updated_at: now().toISOString(),
        text: 'docs: Link the changelog.',
        data,
      };
      expect(await backend.apply([{ record: legacy, expectedRevision: null }])).toEqual({ ok: true });
      expect((await listPreferences(backend, repo, 'renovate[bot]')).map((p) => p.data.preference)).toEqual([
        'Link the changelog.',
      ]);
      expect(await listPreferences(backend, repo, 'renovate-bot')).toEqual([]);
    });

    h.test('a replayed or late pull-request signal never turns a newer outcome back', async () => {
      const backend = h.backend();
      for (const id of ['in-order', 'reversed']) {
        await writeEpisode({
          backend,
          repo,
          now,
          episode: { task_id: id, status: 'completed', pr_number: id === 'in-order' ? 12 : 13 },
        });
      }
      const closedAt = '2026-03-02T10:00:00Z';
      const mergedAt = '2026-03-02T11:00:00Z';
      const signal = (prNumber: number, merged: boolean, eventAt: string) =>
        recordEpisodeOutcome({ backend, repo, target: { prNumber }, merged, eventAt, now });
      await signal(12, false, closedAt);
      await signal(12, true, mergedAt);
      const replay = await signal(12, false, closedAt);
      expect(replay.kind === 'recorded' ? replay.stale : replay.kind).toEqual(['in-order']);
      const episode = await getEpisode(backend, repo, 'in-order');
      expect([episode?.data.outcome, episode?.data.outcome_event_at]).toEqual(['positive', '2026-03-02T11:00:00.000Z']);
      await signal(13, true, mergedAt);
      await signal(13, false, closedAt);
      expect((await getEpisode(backend, repo, 'reversed'))?.data.outcome).toBe('positive');
    });

    h.test('a delivery id is remembered in the store, once', async () => {
      const backend = h.backend();
      const id = '72d3162e-cc78-11e3-81ab-4c9367dc0958';
      expect(await wasDelivered(backend, repo, id)).toBe(false);
      expect(await rememberDelivery(backend, repo, id, now)).toBe(true);
      expect(await rememberDelivery(backend, repo, id, now)).toBe(false);
      expect(await wasDelivered(backend, repo, id)).toBe(true);
      expect(await wasDelivered(backend, repo, '72d3162e-cc78-11e3-81ab-4c9367dc0959')).toBe(false);
      expect(await wasDelivered(backend, TASK_CONFORMANCE_OTHER_REPOS[0] as string, id)).toBe(false);
    });
  });
}
