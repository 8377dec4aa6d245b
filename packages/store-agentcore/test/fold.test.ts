// Why: the fold is what makes compare-and-swap hold without a conditional write: checked here on
// its own, with arbitrary arrival orders of racing events, and the chunking that splits and
// rejoins long texts exactly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ChainLink, chainHead, committedLink, foldChain, nextTimestamp, splitText } from '../src/index.js';

const link = (id: string, at: number, parent: string | null, height: number): ChainLink => ({
  id,
  at,
  parent,
  height,
  nonce: `n-${id}`,
  kind: 'put',
  version: `v-${id}`,
  size: 1,
});

describe('fold', () => {
  it('of two children of one head, the first in (timestamp, id) order wins, whatever the arrival order', () => {
    const root = link('1#a', 1, null, 1);
    const first = link('2#a', 2, '1#a', 2);
    const second = link('2#b', 2, '1#a', 2);
    const next = link('3#a', 3, '2#a', 3);
    fc.assert(
      fc.property(fc.shuffledSubarray([root, first, second, next], { minLength: 4, maxLength: 4 }), (arrival) => {
        expect(foldChain(arrival).map((item) => item.id)).toEqual(['1#a', '2#a', '3#a']);
        expect(committedLink(arrival, 'n-2#b')).toBeUndefined();
        expect(chainHead(arrival)?.id).toBe('3#a');
      }),
    );
  });

  it('an event on a stale head never joins', () => {
    const chain = [link('1#a', 1, null, 1), link('2#a', 2, '1#a', 2), link('3#a', 3, '1#a', 2)];
    expect(foldChain(chain).map((item) => item.id)).toEqual(['1#a', '2#a']);
  });

  it('the head is the first event at the greatest height: the newest events are enough', () => {
    const window = [
      link('250#a', 250, '249#a', 250),
      link('250#b', 249, '249#a', 250),
      link('249#a', 248, '248#a', 249),
    ];
    expect(chainHead(window)?.id).toBe('250#b');
    expect(committedLink(window, 'n-250#b')?.id).toBe('250#b');
    expect(committedLink(window, 'n-250#a')).toBeUndefined();
  });

  it('a child is always timestamped after its parent', () => {
    expect(nextTimestamp(link('1#a', 5_000, null, 1), 1_000)).toBe(5_001);
    expect(nextTimestamp(undefined, 1_000)).toBe(1_000);
  });
});

describe('splitText', () => {
  it('rejoins exactly, never splits a surrogate pair, and keeps every chunk within the limit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 120 }), fc.integer({ min: 2, max: 40 }), (text, max) => {
        const chunks = splitText(text, max);
        expect(chunks.join('')).toBe(text);
        let boundary = 0;
        for (const chunk of chunks) {
          expect(chunk.length).toBeGreaterThan(0);
          expect(chunk.length).toBeLessThanOrEqual(max);
          boundary += chunk.length;
          const before = text.charCodeAt(boundary - 1);
          const after = text.charCodeAt(boundary);
          const cutsPair = before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
          expect(cutsPair).toBe(false);
        }
      }),
      { numRuns: 100 },
    );
  });
});
