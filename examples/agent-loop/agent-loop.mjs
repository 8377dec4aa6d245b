#!/usr/bin/env node
// Why: the integration an agent framework writes around one task, on repomem's embedded SQLite
// default: `hydrate` the task's memory context (review rules, verified memories whose citations
// hold now, repository knowledge, similar past tasks, the user's preferences; its receipt kept
// under the task id) plus matching notes of the memory tree into a prompt, do the task, then
// record what was learned (a verified memory citing the code, `applied` telemetry, a MEMORY.md
// bullet, the task's episode and its learnings). Memory never fails the task: hydration and
// end-of-task writes are fail-open and report warnings instead of throwing.
//
// Run: node examples/agent-loop/agent-loop.mjs [--repo-dir <git worktree>] [--db <path>]
//      [--repo <owner/name>] [--task <text>]
// Without --repo-dir a small demo repository is created in a temporary directory with the git CLI.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  buildEnvelope,
  createDocumentTaskRecordBackend,
  hydrate,
  openMemory,
  openVerifiedMemory,
  recordExplicitPreferences,
  recordLearnings,
  renderPrompt,
  writeEpisode,
} from '@repomem/core';
import { createGitCitationReader } from '@repomem/store-git';
import { openSqliteRecordBackend, openSqliteStore } from '@repomem/store-sqlite';

/** Repository slug used when neither `--repo` nor `$GITHUB_REPOSITORY` is given. */
export const DEFAULT_REPO = 'demo/app';
/** Task used when `--task` is not given. */
export const DEFAULT_TASK = 'Bump the API version to 1.5.0';
/** Who the simulated agent is (recorded as `created_by` and in telemetry). */
export const AGENT_ID = 'example-agent';

const USAGE = `Usage: node examples/agent-loop/agent-loop.mjs [--repo-dir <git worktree>] [--db <path>] [--repo <owner/name>] [--task <text>]
                                            [--task-id <id>] [--user <login>]

  --repo-dir <dir>  Git repository whose code memories cite (default: a demo repository in a temp dir)
  --db <path>       SQLite file holding the memory tree and verified memories
                    (default: <repo-dir>/.repomem/repomem.db, the file the repomem CLI uses there)
  --repo <o/n>      Repository slug the memories belong to (default $GITHUB_REPOSITORY, then ${DEFAULT_REPO})
  --task <text>     The task request (default "${DEFAULT_TASK}")
  --task-id <id>    Task id: keys the context receipt and the episode (default: task-<time>)
  --user <login>    Who submitted the task: their preferences are read and extended (default octocat)
`;

/** The demo repository: an API version that must stay in sync between code and docs. */
const DEMO_FILES = {
  '.gitignore': '.repomem/\n',
  'package.json': '{\n  "name": "demo-app",\n  "private": true,\n  "type": "module"\n}\n',
  'src/config.js': [
    '// Application settings.',
    '',
    "export const API_VERSION = '1.4.0';",
    'export const TIMEOUT_MS = 5000;',
    '',
  ].join('\n'),
  'docs/api.md': [
    '# API',
    '',
    'The current API version is 1.4.0.',
    '',
    'Clients send it in the `X-Api-Version` header.',
    '',
  ].join('\n'),
};

/**
 * Runs git with a fixed identity and no signing, so the example works on a fresh machine.
 * @param {string} cwd
 * @param {string[]} args
 * @returns {string} stdout
 */
function git(cwd, args) {
  return execFileSync(
    'git',
    ['-c', 'user.name=repomem example', '-c', 'user.email=example@localhost', '-c', 'commit.gpgsign=false', ...args],
    { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

/**
 * Creates the demo repository in `dir` (created when missing) with one commit on `main`.
 * @param {string} dir
 * @returns {string} the directory
 */
export function createDemoRepository(dir) {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main']);
  for (const [path, content] of Object.entries(DEMO_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'Initial commit']);
  return dir;
}

/**
 * Misuse is not a memory failure: a --repo-dir that is not a git repository with a commit throws.
 * @param {string} repoDir
 */
function requireGitRepository(repoDir) {
  try {
    git(repoDir, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  } catch {
    throw new Error(`--repo-dir ${repoDir} is not a git repository with at least one commit`);
  }
}

/**
 * A file's lines at HEAD (what the git citation reader verifies against), or undefined.
 * @param {string} repoDir
 * @param {string} path
 * @returns {string[] | undefined}
 */
function linesAtHead(repoDir, path) {
  try {
    return git(repoDir, ['show', `HEAD:${path}`]).split('\n');
  } catch {
    return undefined;
  }
}

/**
 * The simulated agent's discovery during the task: a durable convention with citations into the
 * committed code. In the demo repository that is the API version kept in sync between
 * `src/config.js` and `docs/api.md`; elsewhere it cites the opening lines of package.json or README.md.
 * @param {string} repoDir
 * @returns {{ subject: string, fact: string, reason: string, citations: { path: string, line_start: number, line_end: number }[] } | undefined}
 */
export function discoverConvention(repoDir) {
  const config = linesAtHead(repoDir, 'src/config.js');
  const docs = linesAtHead(repoDir, 'docs/api.md');
  const codeLine = config?.findIndex((line) => line.includes('API_VERSION')) ?? -1;
  const docsLine = docs?.findIndex((line) => /API version/i.test(line)) ?? -1;
  if (codeLine >= 0 && docsLine >= 0) {
    return {
      subject: 'API version synchronization',
      fact: 'API_VERSION in src/config.js and the version stated in docs/api.md must be changed together.',
      reason: 'Clients read the documented version; a mismatch breaks integrations silently.',
      citations: [
        { path: 'src/config.js', line_start: codeLine + 1, line_end: codeLine + 1 },
        { path: 'docs/api.md', line_start: docsLine + 1, line_end: docsLine + 1 },
      ],
    };
  }
  for (const path of ['package.json', 'README.md']) {
    const lines = linesAtHead(repoDir, path);
    const first = lines?.findIndex((line) => line.trim() !== '') ?? -1;
    if (lines === undefined || first < 0) continue;
    return {
      subject: `Entry point ${path}`,
      fact: `${path} starts with: ${lines[first].trim().slice(0, 200)}`,
      reason: 'Read it first to learn how the repository is built.',
      citations: [{ path, line_start: first + 1, line_end: first + 1 }],
    };
  }
  return undefined;
}

/**
 * Reads a prompt part from ./prompts (Sepo's layout: `_base.md`, `_memory.md`, one template per
 * route), without its final newline (renderPrompt joins parts with one blank line).
 * @param {string} name
 * @returns {string}
 */
function promptPart(name) {
  return readFileSync(new URL(`./prompts/${name}`, import.meta.url), 'utf8').replace(/\n+$/, '');
}

/**
 * @param {readonly import('@repomem/core').SearchHit[]} hits
 * @returns {string}
 */
function formatNotes(hits) {
  const lines = hits.flatMap((hit) =>
    hit.snippets.map((snippet) => `- ${hit.path}:${snippet.lineNumber} ${snippet.text}`),
  );
  return lines.length === 0 ? '- (none)' : lines.join('\n');
}

/**
 * @param {unknown} error
 * @returns {string}
 */
function describe(error) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * @typedef {object} AgentLoopOptions
 * @property {string} [repoDir] git repository the memories cite (default: a new demo repository in a temp dir)
 * @property {string} [dbPath] SQLite file (default `<repoDir>/.repomem/repomem.db`)
 * @property {string} [repo] repository slug (default `$GITHUB_REPOSITORY`, then `demo/app`)
 * @property {string} [task] task request
 * @property {string} [taskId] task id (default `task-<time>`): keys the context receipt and the episode
 * @property {string} [user] GitHub login of the submitting user (default `octocat`)
 * @property {(line: string) => void} [log] where the prompt and the summary are printed (default console.log)
 */

/**
 * One agent task with repository memory: hydrate, render the prompt, "do the task", record.
 * Never throws because memory failed: such failures are returned in `warnings`.
 * @param {AgentLoopOptions} [options]
 */
export async function runAgentLoop(options = {}) {
  const log = options.log ?? ((line) => console.log(line));
  const repoDir = resolve(options.repoDir ?? createDemoRepository(mkdtempSync(join(tmpdir(), 'repomem-agent-loop-'))));
  requireGitRepository(repoDir);
  const dbPath = resolve(options.dbPath ?? join(repoDir, '.repomem', 'repomem.db'));
  const repo = options.repo ?? process.env.GITHUB_REPOSITORY ?? DEFAULT_REPO;
  const task = options.task ?? DEFAULT_TASK;
  const taskId = options.taskId ?? `task-${Date.now()}`;
  const user = options.user ?? 'octocat';
  const started = Date.now();
  /** @type {string[]} */
  const warnings = [];

  // 1. Open the embedded store: documents (MEMORY.md...), task records (episodes, knowledge,
  // preferences, receipts, as JSON documents under .repomem/tasks/) and verified memories share one file.
  const store = await openSqliteStore({ path: dbPath, repo });
  const memory = openMemory({ store });
  const tasks = createDocumentTaskRecordBackend(store);
  const verified = openVerifiedMemory({
    backend: openSqliteRecordBackend({ path: dbPath }),
    citations: createGitCitationReader({ dir: repoDir }), // cited code is read from git objects at HEAD
  });

  try {
    // 2. Hydrate: every memory source in parallel (each within its timeout), within a token
    // budget, with a receipt of what was included or dropped; plus the memory tree's notes.
    /** @type {import('@repomem/core').RecallResult} */
    let recall = { memories: [], invalidated: [], unverified: [] };
    /** @type {import('@repomem/core').HydrateResult | undefined} */
    let hydration;
    /** @type {readonly import('@repomem/core').SearchHit[]} */
    let notes = [];
    let memoryAvailable = true;
    try {
      await memory.init(); // seeds MEMORY.md, PROJECT.md... when missing; idempotent
      hydration = await hydrate({
        backend: tasks,
        repo,
        task: { id: taskId, description: task, user },
        // recall verifies each memory against the code; kept here to report what it invalidated
        verified: { recall: async (...args) => (recall = await verified.recall(...args)) },
        recordReceipt: true,
        noteRuleRetrievals: true, // review rules not given to an agent in 50 tasks expire
      });
      for (const failure of [...hydration.errors, ...hydration.warnings]) {
        warnings.push(`memory source ${failure.source} failed (${failure.category}): ${failure.message}`);
      }
      // The seeded README.md describes the tree layout, not the project: leave it out of the prompt.
      const found = await memory.search(task, { limit: 4, snippets: 2 });
      notes = found.results.filter((hit) => hit.path !== 'README.md').slice(0, 3);
    } catch (error) {
      memoryAvailable = false;
      warnings.push(`memory hydration failed, continuing without memory: ${describe(error)}`);
    }

    // 3. Render the prompt (memory content is excluded from the prompt version on purpose).
    const envelope = buildEnvelope({
      repo_slug: repo,
      route: 'implement',
      source_kind: 'workflow_dispatch',
      target_kind: 'repository',
      target_number: 0,
      target_url: `https://github.com/${repo}`,
      request_text: task,
      requested_by: user,
      workflow: 'agent-loop.mjs',
    });
    const prompt = renderPrompt({
      base: promptPart('_base.md'),
      memoryFragment: promptPart('_memory.md'),
      template: promptPart(`${envelope.route}.md`),
      memoryAvailable,
      envelope,
      variables: {
        MEMORY_CONTEXT: hydration?.markdown || '(no memory yet for this task)',
        MEMORY_NOTES: formatNotes(notes),
      },
    });

    // 4. "Do the task": a real integration sends the prompt to its model here.
    log(`----- prompt ${prompt.promptVersion} -----`);
    log(prompt.text);
    log('----- end of prompt -----');

    // 5. Record: applied telemetry for what was used, a new verified memory, a MEMORY.md bullet.
    /** @type {string[]} */
    const applied = [];
    /** @type {import('@repomem/core').StoreOutcome | undefined} */
    let storeOutcome;
    /** @type {import('@repomem/core').UpdateOutcome | undefined} */
    let bulletOutcome;
    try {
      for (const used of recall.memories) {
        const outcome = await verified.logApplied(repo, used.id, { task, agent: AGENT_ID });
        if (outcome.kind === 'changed') applied.push(used.id);
      }
      const learned = discoverConvention(repoDir);
      const known = learned !== undefined && recall.memories.some((m) => m.subject === learned.subject);
      if (learned !== undefined && !known) {
        storeOutcome = await verified.store({ repo, ...learned, created_by: AGENT_ID });
        if (storeOutcome.kind === 'rejected') warnings.push(`memory not stored: a citation does not hold`);
      }
      if (learned !== undefined) {
        bulletOutcome = await memory.add({
          file: 'MEMORY.md',
          section: 'Conventions',
          text: `${learned.subject}: ${learned.fact}`,
        });
      }
      await memory.dailyAppend({ text: `${AGENT_ID}: ${task}` });
    } catch (error) {
      warnings.push(`recording memory failed: ${describe(error)}`);
    }

    // 6. Task end: the episode (idempotent by task id, retried, never throws), the answer to the
    // post-task learnings prompt ("**[Topic]:** learning"), and the user's explicit preferences.
    const learned = discoverConvention(repoDir);
    const episode = await writeEpisode({
      backend: tasks,
      repo,
      episode: {
        task_id: taskId,
        status: 'completed',
        description: task,
        approach: learned === undefined ? 'Explored the repository.' : `Kept ${learned.subject.toLowerCase()} in mind.`,
        files_changed: learned?.citations.map((citation) => citation.path) ?? [],
        duration_s: (Date.now() - started) / 1000,
        prompt_version: prompt.promptVersion,
        user,
        receipt_id: taskId,
      },
    });
    if (episode.kind === 'failed') warnings.push(`episode not written: ${episode.failure.message}`);
    /** @type {import('@repomem/core').RecordLearningsResult | undefined} */
    let learnings;
    try {
      const answer =
        learned === undefined ? 'No new repository learnings.' : `**[${learned.subject}]:** ${learned.fact}`;
      learnings = await recordLearnings({ backend: tasks, repo, taskId, learnings: answer });
      await recordExplicitPreferences({ backend: tasks, repo, user, description: task, taskId });
    } catch (error) {
      warnings.push(`recording learnings failed: ${describe(error)}`);
    }

    const stats = await verified.stats(repo).catch((error) => {
      warnings.push(`stats failed: ${describe(error)}`);
      return undefined;
    });
    const stored = storeOutcome?.kind === 'stored' ? storeOutcome.memory : undefined;
    log(
      `recalled ${recall.memories.length}, invalidated ${recall.invalidated.length}, ` +
        `unverified ${recall.unverified.length}, applied ${applied.length}, stored ${stored ? 1 : 0}` +
        (bulletOutcome ? `, MEMORY.md ${bulletOutcome.kind}` : ''),
    );
    if (stats !== undefined) {
      const rate =
        stats.verificationSuccessRate === null ? 'n/a' : `${Math.round(stats.verificationSuccessRate * 100)}%`;
      log(
        `stats: ${JSON.stringify(stats.byStatus)}, verification success ${rate}, events ${JSON.stringify(stats.events)}`,
      );
    }
    for (const warning of warnings) log(`warning: ${warning}`);
    if (hydration !== undefined) {
      const dropped = hydration.dropped.length;
      log(
        `context: ${hydration.receipt.items.length - dropped} memories included, ${dropped} dropped, ${hydration.receipt.used_tokens} tokens`,
      );
    }
    log(
      `repository ${repoDir}, memory ${dbPath} (inspect: repomem memories recent --store sqlite:${dbPath} --repo ${repo};` +
        ` repomem context receipts --task ${taskId} --store sqlite:${dbPath} --repo ${repo})`,
    );

    return {
      repoDir,
      dbPath,
      repo,
      taskId,
      prompt,
      hydration,
      episode,
      learnings,
      recalled: recall.memories,
      invalidated: recall.invalidated.map((entry) => entry.memory),
      unverified: recall.unverified.map((entry) => entry.memory),
      notes,
      applied,
      stored,
      bulletOutcome,
      stats,
      warnings,
    };
  } finally {
    await verified.close();
    await tasks.close();
    await store.close();
  }
}

/**
 * The command line: parses arguments, runs one task, returns the exit code.
 * @param {string[]} argv arguments after the script name
 * @returns {Promise<number>}
 */
export async function main(argv) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        'repo-dir': { type: 'string' },
        db: { type: 'string' },
        repo: { type: 'string' },
        task: { type: 'string' },
        'task-id': { type: 'string' },
        user: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`${describe(error)}\n\n${USAGE}`);
    return 1;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  try {
    const result = await runAgentLoop({
      repoDir: values['repo-dir'],
      dbPath: values.db,
      repo: values.repo,
      task: values.task,
      taskId: values['task-id'],
      user: values.user,
    });
    return result.warnings.length === 0 ? 0 : 2;
  } catch (error) {
    process.stderr.write(`agent-loop: ${describe(error)}\n`);
    return 1;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      process.stderr.write(`agent-loop: ${describe(error)}\n`);
      process.exitCode = 1;
    },
  );
}
