// Why: the post-task answers are free text from a model; the parser must take the documented
// format (and its "nothing new" answer), say what it skipped, and the recorder must deduplicate
// and supersede by subject and scope (the seed's Jest-then-Vitest case and its scoped variant).
import { describe, expect, it } from 'vitest';
import {
  extractExplicitPreferences,
  hydrate,
  listPreferences,
  parseLearnings,
  recordExplicitPreferences,
  recordLearnings,
  setPreference,
} from '../../src/index.js';
import { freshBackend, minuteClock, REPO } from './support.js';

describe('parseLearnings', () => {
  it('reads **[Topic]:** paragraphs, with scopes and continuation lines, and reports what it skipped', () => {
    const parsed = parseLearnings(
      [
        'Here is what I learned:',
        '',
        '**[Auth module]:** The session service has a 5-minute token cache.',
        'It lives in src/auth/session.ts.',
        '- **Testing (src/legacy/):** Legacy code is tested with Jest.',
        '**CI**: Integration tests time out when more than 3 run in parallel.',
        '**[Empty]:**',
      ].join('\n'),
    );
    expect(parsed).toEqual({
      kind: 'items',
      items: [
        {
          subject: 'Auth module',
          scope: null,
          fact: 'The session service has a 5-minute token cache. It lives in src/auth/session.ts.',
        },
        { subject: 'Testing', scope: 'src/legacy/', fact: 'Legacy code is tested with Jest.' },
        { subject: 'CI', scope: null, fact: 'Integration tests time out when more than 3 run in parallel.' },
      ],
      skipped: [
        { line: 'Here is what I learned:', reason: 'not_a_learning' },
        { line: '**[Empty]:**', reason: 'empty' },
      ],
    });
  });

  it('recognises the "nothing new" answers', () => {
    expect(parseLearnings('No new repository learnings.')).toEqual({ kind: 'none' });
    expect(parseLearnings('  no missing context identified  ')).toEqual({ kind: 'none' });
  });

  it('takes free-text self-feedback paragraphs when asked', () => {
    const parsed = parseLearnings(
      '- The CI secrets setup was undocumented. I lost an hour.\n- Nobody said tests need Docker.',
      {
        freeText: true,
      },
    );
    expect(parsed.kind === 'items' && parsed.items.map((item) => item.subject)).toEqual([
      'The CI secrets setup was undocumented',
      'Nobody said tests need Docker',
    ]);
  });
});

describe('recordLearnings', () => {
  it('Jest then Vitest: the newer learning supersedes the older one in the same scope', async () => {
    const backend = freshBackend();
    const now = minuteClock();
    await recordLearnings({
      backend,
      repo: REPO,
      now,
      taskId: 'task-10',
      learnings: '**[Test framework]:** The team uses Jest for testing.',
    });
    const later = await recordLearnings({
      backend,
      repo: REPO,
      now,
      taskId: 'task-25',
      learnings: '**[Test framework]:** The team migrated to Vitest.',
    });
    expect(later.kind === 'recorded' && later.outcomes[0]?.kind).toBe('stored');
    const result = await hydrate({ backend, repo: REPO, task: { description: 'write tests' } });
    expect(result.context.knowledge.map((k) => k.fact)).toEqual(['The team migrated to Vitest.']);
  });

  it('scoped module rules coexist across scopes and supersede within one', async () => {
    const backend = freshBackend();
    const now = minuteClock();
    await recordLearnings({
      backend,
      repo: REPO,
      now,
      learnings:
        '**[State management (src/legacy/)]:** Use Redux.\n**[State management (src/v2/)]:** Use React Context.',
    });
    let result = await hydrate({ backend, repo: REPO, task: { description: 'state management' } });
    expect(result.context.knowledge.map((k) => [k.scope, k.fact]).sort()).toEqual([
      ['src/legacy/', 'Use Redux.'],
      ['src/v2/', 'Use React Context.'],
    ]);
    await recordLearnings({ backend, repo: REPO, now, learnings: '**[State management (src/v2)]:** Use Zustand.' });
    result = await hydrate({ backend, repo: REPO, task: { description: 'state management' } });
    expect(result.context.knowledge.map((k) => [k.scope, k.fact]).sort()).toEqual([
      ['src/legacy/', 'Use Redux.'],
      ['src/v2', 'Use Zustand.'],
    ]);
  });

  it('the same fact again is a duplicate noted with the new task; a superseded fact asserted again wins again', async () => {
    const backend = freshBackend();
    const now = minuteClock();
    const jest = '**[Test framework]:** The team uses Jest.';
    await recordLearnings({ backend, repo: REPO, now, taskId: 't1', learnings: jest });
    const dup = await recordLearnings({
      backend,
      repo: REPO,
      now,
      taskId: 't2',
      learnings: '**[test  FRAMEWORK]:** the team uses jest',
    });
    expect(dup.kind === 'recorded' && dup.outcomes[0]?.kind).toBe('duplicate');
    await recordLearnings({ backend, repo: REPO, now, learnings: '**[Test framework]:** The team uses Vitest.' });
    await recordLearnings({ backend, repo: REPO, now, learnings: jest });
    const result = await hydrate({ backend, repo: REPO, task: { description: 'test framework' } });
    expect(result.context.knowledge.map((k) => k.fact)).toEqual(['The team uses Jest.']);
    expect((await backend.list({ repo: REPO, kind: 'knowledge' })).length).toBe(2);
  });

  it('self-feedback is stored as agent_self_feedback; "nothing new" stores nothing', async () => {
    const backend = freshBackend();
    expect(
      await recordLearnings({
        backend,
        repo: REPO,
        learnings: 'No missing context identified.',
        insightType: 'agent_self_feedback',
      }),
    ).toEqual({ kind: 'none' });
    await recordLearnings({
      backend,
      repo: REPO,
      learnings: 'The migration steps in docs/db.md are outdated.',
      insightType: 'agent_self_feedback',
    });
    const result = await hydrate({ backend, repo: REPO, task: { description: 'database migration' } });
    expect(result.context.knowledge[0]?.insight_type).toBe('agent_self_feedback');
  });
});

describe('preferences', () => {
  it('extracts explicit preferences from a task description, by topic', () => {
    expect(
      extractExplicitPreferences(
        'Add a cache. I prefer small, atomic PRs. Please always add tests for new code. The API is slow.',
      ),
    ).toEqual([
      { topic: 'pr-size', preference: 'I prefer small, atomic PRs.' },
      { topic: 'tests', preference: 'Please always add tests for new code.' },
    ]);
  });

  it('stores them per user; a newer preference on a topic replaces the older', async () => {
    const backend = freshBackend();
    const now = minuteClock();
    await recordExplicitPreferences({ backend, repo: REPO, user: 'bob', now, description: 'I prefer small PRs.' });
    await setPreference({
      backend,
      repo: REPO,
      user: 'carol',
      now,
      preference: 'I prefer comprehensive PRs with docs.',
    });
    await recordExplicitPreferences({
      backend,
      repo: REPO,
      user: 'bob',
      now,
      description: 'I prefer one large PR this time.',
    });
    const bob = await listPreferences(backend, REPO, 'bob');
    expect(bob.map((p) => [p.id, p.data.preference])).toEqual([
      ['users/bob/pr-size', 'I prefer one large PR this time.'],
    ]);
    expect((await listPreferences(backend, REPO, 'carol'))[0]?.id).toBe('users/carol/pr-size');
  });
});
