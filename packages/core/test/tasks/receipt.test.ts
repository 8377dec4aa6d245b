// Why: a receipt must always fit one record (however many candidates a hydration had), keep
// every included item when it is trimmed, and its diff must name each kind of change.
import { describe, expect, it } from 'vitest';
import {
  type ContextReceipt,
  diffReceipts,
  getReceipt,
  MAX_SERIALIZED_TASK_RECORD_CHARS,
  type ReceiptItem,
  recordReceipt,
} from '../../src/index.js';
import { freshBackend, REPO } from './support.js';

function receipt(items: ReceiptItem[], overrides: Partial<ContextReceipt> = {}): ContextReceipt {
  return {
    schema: 1,
    repo: REPO,
    task_id: 'task-1',
    created_at: '2026-03-01T00:00:00.000Z',
    estimator: 'chars/4',
    budget_tokens: 2000,
    used_tokens: 100,
    query_terms: ['cache'],
    sources: [],
    items,
    items_omitted: 0,
    ...overrides,
  };
}

const item = (id: string, included: boolean, overrides: Partial<ReceiptItem> = {}): ReceiptItem => ({
  source: 'knowledge',
  id,
  revision: 1,
  score: 0.5,
  tokens: 20,
  included,
  ...(included ? {} : { reason: 'budget' as const }),
  ...overrides,
});

describe('receipts', () => {
  it('a receipt too large for one record keeps every included item and counts the dropped ones it left out', async () => {
    const backend = freshBackend();
    const items = [
      ...Array.from({ length: 40 }, (_, n) => item(`k-${'i'.repeat(60)}-${n}`, true)),
      ...Array.from({ length: 400 }, (_, n) => item(`k-${'d'.repeat(60)}-${n}`, false)),
    ];
    const stored = await recordReceipt(backend, receipt(items));
    expect(JSON.stringify(stored).length).toBeLessThanOrEqual(MAX_SERIALIZED_TASK_RECORD_CHARS);
    const read = await getReceipt(backend, REPO, 'task-1');
    expect(read?.items.filter((entry) => entry.included)).toHaveLength(40);
    expect((read?.items.length ?? 0) + (read?.items_omitted ?? 0)).toBe(440);
    expect(read?.items_omitted).toBeGreaterThan(0);
  });

  it('diff names added, removed, revised and rescored memories, and changed sources', () => {
    const a = receipt(
      [item('same', true), item('gone', true), item('newer', true), item('score', true), item('late', false)],
      { sources: [{ source: 'episodes', status: 'ok', candidates: 1, ms: 2 }], prompt_version: 'sha256:a' },
    );
    const b = receipt(
      [
        item('same', true),
        item('gone', false),
        item('newer', true, { revision: 2 }),
        item('score', true, { score: 0.9 }),
        item('late', true),
      ],
      { sources: [{ source: 'episodes', status: 'failed', candidates: 0, ms: 5000 }], prompt_version: 'sha256:a' },
    );
    const diff = diffReceipts(a, b);
    expect(diff.items.map((change) => [change.id, change.change])).toEqual([
      ['gone', 'removed'],
      ['late', 'added'],
      ['newer', 'revised'],
      ['score', 'rescored'],
    ]);
    expect(diff.unchanged).toBe(1);
    expect(diff.sources).toEqual([{ source: 'episodes', before: 'ok', after: 'failed' }]);
    expect(diff.promptVersion).toBeUndefined();
  });
});
