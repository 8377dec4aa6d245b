import { describe, expect, it } from 'vitest';
import {
  checkpointMetadata,
  createInMemoryStore,
  isRepomemError,
  promotionMetadata,
  recordCheckpoint,
  recordPromotion,
  recordSessionClose,
  type SessionCloseDetails,
  sessionCloseMetadata,
} from '../../src/index.js';

const content = new TextEncoder().encode('- learned\n');

async function errorOf(action: () => Promise<unknown> | unknown): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('forensic moment metadata', () => {
  it('checkpoint: a greppable "checkpoint: <note>" message with the trailers and source', () => {
    expect(checkpointMetadata('  before refactor ')).toEqual({ message: 'checkpoint: before refactor' });
    expect(
      checkpointMetadata('x', { trailers: { 'Task-Id': 'T-1' }, source: { commit: 'a'.repeat(40), branch: 'main' } }),
    ).toEqual({
      message: 'checkpoint: x',
      trailers: { 'Task-Id': 'T-1' },
      source: { commit: 'a'.repeat(40), branch: 'main' },
    });
  });

  it('session-close: ids in the body and as trailers that win over the caller', () => {
    expect(
      sessionCloseMetadata(
        { sessionId: 'sess-1', agentId: 'agent-7' },
        { trailers: { 'Task-Id': 'T', 'Agent-Id': 'x' } },
      ),
    ).toEqual({
      message: 'session-close',
      body: 'Session sess-1 of agent agent-7 closed.',
      trailers: { 'Task-Id': 'T', 'Session-Id': 'sess-1', 'Agent-Id': 'agent-7' },
    });
  });

  it('promote: one line per memory with its score', () => {
    expect(
      promotionMetadata([
        { text: 'Run pnpm test before pushing', score: 0.92 },
        { text: 'Tests live next to the code', score: 3 },
      ]),
    ).toEqual({
      message: 'promote',
      body: 'Promoted 2 memories:\n- Run pnpm test before pushing (score 0.92)\n- Tests live next to the code (score 3)',
    });
    expect(promotionMetadata([{ text: 'one', score: 1 }]).body).toBe('Promoted 1 memory:\n- one (score 1)');
  });

  it('refuses empty or multi-line text and bad scores with INVALID_ARGUMENT', async () => {
    const bad: Array<() => unknown> = [
      () => checkpointMetadata(''),
      () => checkpointMetadata('two\nlines'),
      () => sessionCloseMetadata({ sessionId: '', agentId: 'a' }),
      () => sessionCloseMetadata(null as unknown as SessionCloseDetails),
      () => promotionMetadata([]),
      () => promotionMetadata([{ text: 'x', score: Number.NaN }]),
      () => promotionMetadata([{ text: 'a\nb', score: 1 }]),
    ];
    for (const action of bad) expect(isRepomemError(await errorOf(action), 'INVALID_ARGUMENT')).toBe(true);
  });
});

describe('recording moments needs a store with history', () => {
  it('is UNSUPPORTED on the in-memory store, and writes nothing', async () => {
    const store = createInMemoryStore();
    const writes = [{ kind: 'put' as const, path: 'MEMORY.md', content }];
    const attempts = [
      () => recordCheckpoint(store, 'note', { writes }),
      () => recordSessionClose(store, { sessionId: 's', agentId: 'a', writes }),
      () => recordPromotion(store, [{ text: 't', score: 1 }], { writes }),
    ];
    for (const attempt of attempts) {
      const error = await errorOf(attempt);
      expect(isRepomemError(error, 'UNSUPPORTED'), String(error)).toBe(true);
      expect((error as Error).message).toContain('memory store keeps no history');
    }
    expect(await store.list()).toEqual([]);
  });
});
