// Why: the document backend answers repeated searches from an inverted index; its answers must
// be exactly those of the reference search (`searchTaskRecords`): same records, same order, for
// `all` and `any`, limits, id prefixes, repeated words and words no record holds.
import { describe, expect, it } from 'vitest';
import {
  analyzeTaskRecordText,
  searchTaskRecords,
  sortTaskRecordsNewestFirst,
  type TaskRecord,
  type TaskRecordSearchQuery,
} from '../../src/index.js';
import { buildRecordWordIndex, searchRecordWordIndex } from '../../src/tasks/record-word-index.js';
import { createSeededRandom } from '../../src/testing/index.js';

const WORDS = 'cache session token billing webhook retry api test vitest jest docker queue worker lint build'.split(
  ' ',
);

describe('record word index', () => {
  it('answers every query exactly as the reference search', () => {
    const random = createSeededRandom('word-index');
    const records: TaskRecord[] = Array.from({ length: 300 }, (_, index) => ({
      kind: 'knowledge',
      repo: 'acme/app',
      id: `${random.pick(['a', 'b', 'ab'])}/${index}`,
      revision: 1,
      updated_at: new Date(Date.UTC(2026, 0, 1) + random.int(0, 50) * 60_000).toISOString(),
      text: Array.from({ length: random.int(1, 12) }, () => random.pick(WORDS)).join(' '),
      data: {},
    }));
    const sorted = sortTaskRecordsNewestFirst(records);
    const analyze = (record: TaskRecord) => analyzeTaskRecordText(record.text);
    const index = buildRecordWordIndex(sorted, analyze);
    for (let n = 0; n < 300; n += 1) {
      const words = Array.from({ length: random.int(1, 4) }, () => random.pick([...WORDS, 'absent']));
      const query: TaskRecordSearchQuery = {
        repo: 'acme/app',
        kind: 'knowledge',
        text: words.join(' '),
        match: random.chance(0.5) ? 'all' : 'any',
        ...(random.chance(0.5) ? { limit: random.int(0, 40) } : {}),
        ...(random.chance(0.3) ? { idPrefix: random.pick(['a', 'a/', 'ab/', 'b']) } : {}),
      };
      const expected = searchTaskRecords(sorted, query, analyze, true);
      expect(
        searchRecordWordIndex(index, query)?.map((r) => r.id),
        JSON.stringify(query),
      ).toEqual(expected.map((r) => r.id));
      expect(searchTaskRecords(records, query).map((r) => r.id)).toEqual(expected.map((r) => r.id));
    }
  });

  it('declines queries it cannot answer (substring terms)', () => {
    const index = buildRecordWordIndex([], (record) => analyzeTaskRecordText(record.text));
    expect(searchRecordWordIndex(index, { repo: 'acme/app', kind: 'rule', text: 'c++' })).toBeUndefined();
    expect(searchRecordWordIndex(index, { repo: 'acme/app', kind: 'rule', text: '記憶' })).toBeUndefined();
  });
});
