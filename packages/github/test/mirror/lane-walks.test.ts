// Why: the cursor rules on their own, without a server: a walk keeps items at or after its floor
// (inclusive: an update in the same second as the cursor is not missed), ends at the first older
// item or the last page, records a resume point while under way, and moves the cursor to the
// greatest `updatedAt` written only when it ends; a resumed walk is followed by a fresh one.
import { describe, expect, it } from 'vitest';
import { type IssueNode, IssueNodeSchema } from '../../src/index.js';
import { advanceLanes, startLanes, takePage } from '../../src/mirror/lane-walks.js';
import type { MirrorSyncState } from '../../src/mirror/mirror-state.js';
import type { LaneItem, RepositoryPage } from '../../src/mirror/page-items.js';

const connection = { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } };

function issue(number: number, updatedAt: string): LaneItem {
  const node: IssueNode = IssueNodeSchema.parse({
    id: `I_${number}`,
    number,
    title: 't',
    body: '',
    url: `https://github.com/o/r/issues/${number}`,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt,
    state: 'OPEN',
    author: null,
    closedAt: null,
    labels: connection,
    comments: connection,
  });
  return { lane: 'issues', node };
}

function page(items: LaneItem[], hasNextPage: boolean, endCursor: string | null): RepositoryPage {
  return {
    nameWithOwner: 'o/r',
    hasDiscussionsEnabled: false,
    lanes: { issues: { items, pageInfo: { hasNextPage, endCursor }, totalCount: 10 } },
  };
}

function state(cursor: string, resume?: { after: string; floor: string; ceiling: string }): MirrorSyncState {
  return {
    cursors: { issues: cursor, pulls: '', discussions: '' },
    lastActivityAt: '',
    extension: { version: 1, resume: resume === undefined ? {} : { issues: resume }, vanished: {} },
  };
}

describe('lane walks', () => {
  it('keeps items at or after the cursor, ends at the first older one, and moves the cursor to the newest written', () => {
    const lanes = startLanes(state('2026-03-01T00:00:00Z'), undefined);
    const issues = lanes.filter((run) => run.lane === 'issues');
    const answer = page(
      [issue(3, '2026-03-05T00:00:00Z'), issue(2, '2026-03-01T00:00:00Z'), issue(1, '2026-02-01T00:00:00Z')],
      true,
      'c1',
    );
    const taken = takePage(issues, answer);
    expect(taken.items.map((item) => item.node.number)).toEqual([3, 2]);
    expect([...taken.ends]).toEqual(['issues']);
    const patch = advanceLanes(issues, answer, taken, false);
    expect(patch).toEqual({ cursors: { issues: '2026-03-05T00:00:00Z' }, resume: { issues: null } });
    expect(issues[0]?.walk).toBeUndefined();
  });

  it('records a resume point while the walk is under way, and leaves the cursor alone', () => {
    const lanes = startLanes(state(''), undefined).filter((run) => run.lane === 'issues');
    const answer = page([issue(9, '2026-04-02T00:00:00Z'), issue(8, '2026-04-01T00:00:00Z')], true, 'c9');
    const patch = advanceLanes(lanes, answer, takePage(lanes, answer), false);
    expect(patch).toEqual({
      cursors: {},
      resume: { issues: { after: 'c9', floor: '', ceiling: '2026-04-02T00:00:00Z' } },
    });
    expect(lanes[0]?.walk?.after).toBe('c9');
  });

  it('continues an interrupted walk, then walks again from the top down to its ceiling', () => {
    const resume = { after: 'c9', floor: '', ceiling: '2026-04-02T00:00:00Z' };
    const lanes = startLanes(state('', resume), undefined).filter((run) => run.lane === 'issues');
    expect(lanes[0]?.walk).toEqual({ after: 'c9', floor: '', ceiling: '2026-04-02T00:00:00Z' });
    const last = page([issue(7, '2026-03-30T00:00:00Z')], false, 'c7');
    const patch = advanceLanes(lanes, last, takePage(lanes, last), false);
    expect(patch.cursors).toEqual({ issues: '2026-04-02T00:00:00Z' });
    expect(lanes[0]?.walk).toEqual({ after: null, floor: '2026-04-02T00:00:00Z', ceiling: '' });
  });

  it('leaves stored resume points alone in a since run', () => {
    const lanes = startLanes(state('', { after: 'c9', floor: '', ceiling: '' }), '2026-01-01T00:00:00Z').filter(
      (run) => run.lane === 'issues',
    );
    expect(lanes[0]?.walk).toEqual({ after: null, floor: '2026-01-01T00:00:00Z', ceiling: '' });
    const answer = page([issue(5, '2026-02-01T00:00:00Z')], true, 'c5');
    expect(advanceLanes(lanes, answer, takePage(lanes, answer), true).resume).toEqual({});
  });
});
