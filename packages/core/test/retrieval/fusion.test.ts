// Why: reciprocal rank fusion is the one fusion of lexical and semantic rankings (search and
// hydration); its order, ties and argument checks are pinned here.
import { describe, expect, it } from 'vitest';
import { DEFAULT_RRF_K, reciprocalRankFusion } from '../../src/retrieval/fusion.js';

describe('reciprocalRankFusion', () => {
  it('sums weight / (k + rank) over the lists holding a key', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['c', 'a'],
    ]);
    expect(fused.map((item) => item.key)).toEqual(['a', 'c', 'b']);
    expect(fused[0]?.score).toBeCloseTo(1 / (DEFAULT_RRF_K + 1) + 1 / (DEFAULT_RRF_K + 2));
    expect(fused[0]?.ranks).toEqual([1, 2]);
    expect(fused[2]?.ranks).toEqual([2, undefined]);
  });

  it('the fusion of one list is that list; a repeated key counts at its first rank', () => {
    expect(reciprocalRankFusion([['x', 'y', 'x', 'z']]).map((item) => [item.key, item.ranks[0]])).toEqual([
      ['x', 1],
      ['y', 2],
      ['z', 3],
    ]);
  });

  it('ties go to the better best rank, then to first appearance; weights scale a list', () => {
    expect(reciprocalRankFusion([['a'], ['b']]).map((item) => item.key)).toEqual(['a', 'b']);
    expect(reciprocalRankFusion([['a'], ['b']], { weights: [1, 2] }).map((item) => item.key)).toEqual(['b', 'a']);
    expect(() => reciprocalRankFusion([['a']], { k: -1 })).toThrow(RangeError);
    expect(() => reciprocalRankFusion([['a']], { weights: [1, 1] })).toThrow(RangeError);
  });
});
