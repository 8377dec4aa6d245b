// Why: a store that offers `history` promises "what did the agent know, and when?" answers. These
// groups check the promise through the store-neutral API: newest-first revisions carrying the
// write's metadata, path filters, and reads of a document as of a past revision or moment.
import type { ConformanceHarness } from './conformance-support.js';
import { text, utf8 } from './conformance-support.js';

/** Register the history groups (run only for stores with `history`). */
export function registerHistoryGroups(h: ConformanceHarness): void {
  const { describe, expect } = h.options.runner;
  const hasHistory = (store: { history?: unknown }) => store.history !== undefined;
  const reason = 'the store keeps no history (no `history` API)';
  const history = () => {
    const found = h.store().history;
    if (found === undefined) throw new Error('conformance: no history');
    return found;
  };

  describe('history', () => {
    h.testIf(hasHistory, reason, 'an empty store has no revisions', async () => {
      expect(await history().log()).toEqual([]);
      expect((await history().readAt('MEMORY.md', new Date())).status).toBe('no_revision');
    });
    h.testIf(hasHistory, reason, 'writes appear newest first with their message, body and trailers', async () => {
      await h.store().write([{ kind: 'put', path: 'MEMORY.md', content: utf8('one\n') }], {
        message: 'chore(memory): first',
        trailers: { 'Task-Id': 't-1' },
      });
      await h.store().write([{ kind: 'put', path: 'daily/2026-05-01.md', content: utf8('day\n') }], {
        message: 'checkpoint: second',
        body: 'Why this was written.',
        trailers: { 'Task-Id': 't-2', 'Thread-Key': 'acme/app:issue:1:answer:default' },
      });
      const log = await history().log();
      expect(log).toHaveLength(2);
      const [newest, oldest] = log;
      expect(newest?.message).toBe('checkpoint: second');
      expect(newest?.body).toBe('Why this was written.');
      expect(newest?.trailers['Task-Id']).toBe('t-2');
      expect(newest?.trailers['Thread-Key']).toBe('acme/app:issue:1:answer:default');
      expect(oldest?.message).toBe('chore(memory): first');
      expect(oldest?.trailers['Task-Id']).toBe('t-1');
      expect(newest?.parents).toContain(oldest?.revision);
      expect(newest?.time instanceof Date).toBe(true);
      expect((newest?.time.getTime() ?? 0) >= (oldest?.time.getTime() ?? 0)).toBe(true);
    });
    h.testIf(hasHistory, reason, 'log filters by path and limit', async () => {
      await h.seed({ 'MEMORY.md': 'a\n' });
      await h.seed({ 'PROJECT.md': 'p\n' });
      await h.seed({ 'MEMORY.md': 'b\n' });
      expect(await history().log({ path: 'MEMORY.md' })).toHaveLength(2);
      expect(await history().log({ path: 'PROJECT.md' })).toHaveLength(1);
      expect(await history().log({ limit: 1 })).toHaveLength(1);
    });
    h.testIf(hasHistory, reason, 'readAt returns a document as of a past revision, or absent', async () => {
      await h.seed({ 'MEMORY.md': 'before\n' });
      const [first] = await history().log();
      await h.seed({ 'MEMORY.md': 'after\n', 'PROJECT.md': 'new\n' });
      const then = await history().readAt('MEMORY.md', first?.revision as string);
      expect(then.status).toBe('found');
      if (then.status === 'found') {
        expect(text(then.document.content)).toBe('before\n');
        expect(then.revision.revision).toBe(first?.revision);
      }
      expect((await history().readAt('PROJECT.md', first?.revision as string)).status).toBe('absent');
      const now = await history().readAt('MEMORY.md', new Date(Date.now() + 60_000));
      expect(now.status === 'found' ? text(now.document.content) : now.status).toBe('after\n');
    });
    h.testIf(hasHistory, reason, 'readAt of an unknown revision is NOT_FOUND', async () => {
      await h.seed({ 'MEMORY.md': 'x\n' });
      await h.expectError(() => history().readAt('MEMORY.md', 'f'.repeat(40)), 'NOT_FOUND');
    });
  });
}
