// Why: the agent-loop example is documentation that runs; this proves it keeps working end to end
// on real parts (git CLI repository, SQLite file): a memory stored by one task is recalled verified
// by the next, and a commit that changes the cited lines makes the following task invalidate it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDemoRepository, main, runAgentLoop } from '../agent-loop/agent-loop.mjs';

let workDir: string;
let repoDir: string;
let dbPath: string;
const quiet = () => {};

function commitAll(message: string): void {
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@localhost', 'commit', '-qam', message], {
    cwd: repoDir,
    stdio: 'ignore',
  });
}

beforeEach(() => {
  workDir = mkdtempSync(join(tmpdir(), 'repomem-examples-'));
  repoDir = createDemoRepository(join(workDir, 'repo'));
  dbPath = join(workDir, 'memory.db');
});

afterEach(() => {
  rmSync(workDir, { recursive: true, force: true });
});

describe('agent-loop example', () => {
  it('stores a memory, recalls it verified on the next run, and invalidates it after the cited code changes', async () => {
    const first = await runAgentLoop({ repoDir, dbPath, repo: 'acme/demo', log: quiet });
    expect(first.warnings).toEqual([]);
    expect(first.recalled).toEqual([]);
    expect(first.stored?.subject).toBe('API version synchronization');
    expect(
      first.stored?.citations.map((c: { path: string; line_start: number }) => `${c.path}:${c.line_start}`),
    ).toEqual(['src/config.js:3', 'docs/api.md:3']);
    expect(first.bulletOutcome?.kind).toBe('added');
    expect(first.prompt.text).toContain('## Memory');
    expect(first.prompt.text).toContain('Bump the API version to 1.5.0');
    const storedId = first.stored?.id;

    const lines: string[] = [];
    const second = await runAgentLoop({ repoDir, dbPath, repo: 'acme/demo', log: (line: string) => lines.push(line) });
    expect(second.warnings).toEqual([]);
    expect(second.recalled.map((m: { id: string }) => m.id)).toEqual([storedId]);
    expect(second.applied).toEqual([storedId]);
    expect(second.stored).toBeUndefined(); // already known: not stored twice
    expect(second.bulletOutcome?.kind).toBe('duplicate');
    expect(second.prompt.text).toContain('API_VERSION in src/config.js and the version stated in docs/api.md');
    expect(second.notes.some((hit: { path: string }) => hit.path === 'MEMORY.md')).toBe(true);
    expect(second.prompt.promptVersion).toBe(first.prompt.promptVersion); // memory content is not versioned
    expect(second.stats?.events.applied).toBe(1);
    expect(second.stats?.verificationSuccessRate).toBe(1);
    expect(lines.join('\n')).toContain('recalled 1, invalidated 0');

    const config = join(repoDir, 'src/config.js');
    writeFileSync(config, readFileSync(config, 'utf8').replace("API_VERSION = '1.4.0'", "API_VERSION = '2.0.0'"));
    commitAll('Bump API_VERSION without the docs');

    const third = await runAgentLoop({ repoDir, dbPath, repo: 'acme/demo', log: quiet });
    expect(third.warnings).toEqual([]);
    expect(third.invalidated.map((m: { id: string }) => m.id)).toEqual([storedId]);
    expect(third.recalled).toEqual([]);
    expect(third.prompt.text).not.toContain('(cites src/config.js');
    expect(third.stored?.id).not.toBe(storedId); // rediscovered from the current code
    expect(third.stats?.byStatus).toMatchObject({ active: 1, invalid: 1 });
  });

  it('hydrates past episodes and learnings, keeps a receipt per task, and writes the episode and learnings', async () => {
    const first = await runAgentLoop({ repoDir, dbPath, repo: 'acme/demo', taskId: 'task-1', log: quiet });
    expect(first.episode.kind).toBe('written');
    expect(first.learnings?.kind === 'recorded' && first.learnings.outcomes[0]?.kind).toBe('stored');
    expect(first.hydration?.receipt.task_id).toBe('task-1');

    const second = await runAgentLoop({ repoDir, dbPath, repo: 'acme/demo', taskId: 'task-2', log: quiet });
    expect(second.warnings).toEqual([]);
    expect(second.hydration?.context.episodes.map((episode: { id: string }) => episode.id)).toEqual(['task-1']);
    expect(second.hydration?.context.verified).toHaveLength(1);
    // The learning repeats the verified memory: it is dropped as a duplicate, and said so.
    expect(
      second.hydration?.dropped.map((item: { source: string; reason: string }) => [item.source, item.reason]),
    ).toEqual([['knowledge', 'duplicate']]);
    expect(second.learnings?.kind === 'recorded' && second.learnings.outcomes[0]?.kind).toBe('duplicate');
    expect(second.prompt.text).toContain('### Similar past tasks');
    expect(second.prompt.promptVersion).toBe(first.prompt.promptVersion);
  });

  it('keeps memories of different repositories apart in one SQLite file', async () => {
    await runAgentLoop({ repoDir, dbPath, repo: 'acme/one', log: quiet });
    const other = await runAgentLoop({ repoDir, dbPath, repo: 'acme/two', log: quiet });
    expect(other.recalled).toEqual([]);
    expect(other.stored).toBeDefined();
  });

  it('refuses a --repo-dir that is not a git repository and creates no database', async () => {
    const notRepo = join(workDir, 'not-a-repo');
    await expect(runAgentLoop({ repoDir: notRepo, dbPath, log: quiet })).rejects.toThrow(
      `--repo-dir ${notRepo} is not a git repository`,
    );
    expect(existsSync(dbPath)).toBe(false);
  });

  it('main reports an unknown option as a usage error (exit 1)', async () => {
    const write = process.stderr.write;
    process.stderr.write = () => true;
    try {
      expect(await main(['--no-such-option'])).toBe(1);
    } finally {
      process.stderr.write = write;
    }
  });
});
