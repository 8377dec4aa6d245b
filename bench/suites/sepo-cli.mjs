// Why: repomem's CLI is a drop-in for Sepo's memory CLIs, so an agent feels each call as a fresh
// process: `repomem update add --dir` must cost about what Sepo's update costs, stay flat as the
// tree grows, `repomem update add` on the default SQLite store must cost about a bare `node`
// start, and each command should load little JavaScript. This suite spawns the built CLI on the
// Sepo fixture tree and on generated trees of 200, 2,000 and 20,000 mirror files, each command
// paired with its baseline (A B A B ..., ratio pair by pair), every tree interleaved round by
// round so the trees are compared under the same machine load, and records the JavaScript each
// command loads.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatLoaded, measureLoadedJs } from '../lib/loaded-js.mjs';
import { summarize, summarizeRatios, timeProcess } from '../lib/measure.mjs';
import { queriesFor } from '../lib/queries.mjs';
import { formatMs, formatRatio, markdownTable } from '../lib/table.mjs';
import { fixtureTreeSource, prepareGeneratedTree, REPO_ROOT, readTreeDocuments } from '../lib/trees.mjs';

/** The committed launcher of the CLI (`bin` of @repomem/cli), which loads dist/bin.js. */
export const CLI_LAUNCHER = join(REPO_ROOT, 'packages', 'cli', 'bin', 'repomem.js');
const UPDATE_BASELINE = join(REPO_ROOT, 'bench', 'baseline-sepo-update.mjs');
const SEARCH_BASELINE = join(REPO_ROOT, 'bench', 'baseline-naive-search.mjs');
const SQLITE_STORE_DIST = join(REPO_ROOT, 'packages', 'store-sqlite', 'dist', 'index.js');
/** The scope the CLI gives a SQLite store when neither --repo nor $GITHUB_REPOSITORY names one (`repomem --help`). */
const CLI_DEFAULT_REPO = 'local/default';

/** Generated tree sizes (JSON mirror files) when the runner does not choose them. */
export const DEFAULT_SEPO_CLI_SIZES = [200, 2_000, 20_000];
const SECTION = 'Durable'; // present in the fixture's and the generated MEMORY.md
const DIR_GOAL_RATIO = 1.3;
const SQLITE_GOAL_RATIO = 1.5;
const FLAT_GOAL_RATIO = 1.1;

const LABELS = {
  dir: '`repomem update add --dir <tree>`',
  updateBaseline: 'Sepo-style update (`bench/baseline-sepo-update.mjs add --dir <tree>`)',
  sqlite: '`repomem update add`, default SQLite store (`.repomem/repomem.db` in the working directory)',
  node: '`node -e 0` (process start floor)',
  search: '`repomem search --dir <tree> <query>`, analysis cache filled by earlier queries',
  searchBaseline: 'naive search (`bench/baseline-naive-search.mjs <tree> <query>`)',
  searchNoCache: '`repomem search --dir <tree> <query>` without the analysis cache (`REPOMEM_SEARCH_CACHE=off`)',
  searchBaseline2: 'naive search (`bench/baseline-naive-search.mjs <tree> <query>`), paired with the uncached search',
  searchFirst:
    '`repomem search --dir <tree> <query>`, first query on the tree (analysis cache deleted before; it only marks the tree as seen)',
  searchSecond: '`repomem search --dir <tree> <query>`, a later query (cache built by an untimed second query)',
};
const SEARCH_GOAL_RATIO = 1.0;
const CACHE_GOAL_SPEEDUP = 3;

/** Pairs per tree: update pairs, SQLite pairs, search pairs. */
function plan(jsonFiles, quick) {
  const big = jsonFiles !== undefined && jsonFiles >= 20_000;
  if (quick) return { dir: 5, sqlite: 5, search: big ? 1 : 3 };
  return { dir: big ? 15 : 20, sqlite: big ? 15 : 20, search: big ? 3 : 10 };
}

/** A fresh analysis-cache home per tree, inside the scratch directory (never the user's cache). */
function cacheEnv(cacheHome, extra = {}) {
  return { XDG_CACHE_HOME: cacheHome, ...extra };
}

/** Child environment: nothing from the caller's memory settings may leak into a command. */
function childEnv() {
  const env = { ...process.env };
  for (const name of ['MEMORY_DIR', 'MEMORY_QUERY', 'REPOMEM_STORE', 'GITHUB_REPOSITORY', 'NODE_OPTIONS']) {
    delete env[name];
  }
  return env;
}

const expectAdded = (stdout) => {
  if (!stdout.startsWith('added bullet to '))
    throw new Error(`expected "added bullet to ...", got: ${stdout.slice(0, 200)}`);
};
const expectSearch = (stdout) => {
  if (!stdout.startsWith('Memory search:'))
    throw new Error(`expected "Memory search: ...", got: ${stdout.slice(0, 200)}`);
};

const bullet = (who, round) => `${who} ${round}: keep memory updates cheap as the tree grows`;

/** The six commands run on one tree; `args(round)` is the node argv, `round` a number or a tag. */
function commandsFor(tree, work, sqliteCwd, cacheHome) {
  const queries = queriesFor(tree);
  const query = (round) => queries[(typeof round === 'number' ? round : 0) % queries.length];
  const update = ['update', 'add', '--dir', work, '--file', 'MEMORY.md', '--section', SECTION];
  return {
    dir: { args: (r) => [CLI_LAUNCHER, ...update, bullet('repomem dir', r)], check: expectAdded },
    updateBaseline: {
      args: (r) => [UPDATE_BASELINE, ...update.slice(1), bullet('sepo baseline', r)],
      check: expectAdded,
    },
    sqlite: {
      args: (r) => [
        CLI_LAUNCHER,
        'update',
        'add',
        '--file',
        'MEMORY.md',
        '--section',
        SECTION,
        bullet('repomem sqlite', r),
      ],
      cwd: sqliteCwd,
      check: expectAdded,
    },
    node: { args: () => ['-e', '0'] },
    search: {
      args: (r) => [CLI_LAUNCHER, 'search', '--dir', work, query(r)],
      env: cacheEnv(cacheHome),
      check: expectSearch,
    },
    searchBaseline: { args: (r) => [SEARCH_BASELINE, work, query(r)] },
    searchNoCache: {
      args: (r) => [CLI_LAUNCHER, 'search', '--dir', work, query(r)],
      env: cacheEnv(cacheHome, { REPOMEM_SEARCH_CACHE: 'off' }),
      check: expectSearch,
    },
    searchBaseline2: { args: (r) => [SEARCH_BASELINE, work, query(r)] },
    searchFirst: {
      args: (r) => [CLI_LAUNCHER, 'search', '--dir', work, query(r)],
      env: cacheEnv(`${cacheHome}-first`),
      before: () => rmSync(`${cacheHome}-first`, { recursive: true, force: true }),
      check: expectSearch,
    },
    searchSecond: {
      args: (r) => [CLI_LAUNCHER, 'search', '--dir', work, query(r)],
      env: cacheEnv(`${cacheHome}-first`),
      // The first query only marked the tree as seen; the second builds the cache (untimed here).
      before: () =>
        spawnSync(process.execPath, [CLI_LAUNCHER, 'search', '--dir', work, 'warm the cache'], {
          env: { ...process.env, ...cacheEnv(`${cacheHome}-first`) },
          stdio: 'ignore',
        }),
      check: expectSearch,
    },
  };
}

/**
 * Preload every document of the tree into `<cwd>/.repomem/repomem.db` in the scope the CLI uses
 * by default, so `repomem update add` in `cwd` edits the tree's own MEMORY.md. Falls back to an
 * empty database (the CLI creates it) with a note when the SQLite store cannot be loaded.
 */
async function prepareSqlite(tree, documents, cwd) {
  mkdirSync(join(cwd, '.repomem'), { recursive: true });
  const path = join(cwd, '.repomem', 'repomem.db');
  try {
    const sqlite = await import(SQLITE_STORE_DIST);
    const repo = CLI_DEFAULT_REPO;
    const store = await sqlite.openSqliteStore({ path, repo });
    try {
      const result = await store.write(
        Object.entries(documents).map(([p, content]) => ({ kind: 'put', path: p, content })),
      );
      if (result.status !== 'committed') throw new Error(`loading the tree: ${result.status}`);
    } finally {
      await store.close();
    }
    return { path, repo, preloaded: true };
  } catch (error) {
    rmSync(join(cwd, '.repomem'), { recursive: true, force: true });
    return {
      path,
      preloaded: false,
      note: `${tree.label}: the SQLite database could not be preloaded with the tree (${firstLine(error)}); the CLI ran on an empty database it created itself.`,
    };
  }
}

/** After the run: the CLI must have edited the preloaded MEMORY.md, not another scope's. */
async function checkSqliteScope(sqlite, originalMemory) {
  if (!sqlite.preloaded) return undefined;
  const firstBullet = new TextDecoder()
    .decode(originalMemory)
    .split('\n')
    .find((line) => line.startsWith('- '));
  const { openSqliteStore } = await import(SQLITE_STORE_DIST);
  const store = await openSqliteStore({ path: sqlite.path, repo: sqlite.repo });
  try {
    const current = await store.get('MEMORY.md');
    const text = current ? new TextDecoder().decode(current.content) : '';
    if (text.includes('repomem sqlite') && (firstBullet === undefined || text.includes(firstBullet))) return undefined;
    return 'the CLI did not write into the preloaded MEMORY.md (different database or scope?): its SQLite figures are not on the tree';
  } finally {
    await store.close();
  }
}

/** `Sepo fixture tree (182 files)` / `generated tree (20,019 files)`, for goal rows. */
function treeName(tree) {
  return `${tree.name === 'fixture' ? 'Sepo fixture tree' : 'generated tree'} (${tree.files.toLocaleString('en-US')} files)`;
}

/** One line saying why a command failed: `exited 2: <stderr>` rather than the whole argv first. */
function firstLine(error) {
  let message = error instanceof Error ? error.message : String(error);
  const exited = message.indexOf(' exited ');
  if (exited !== -1) message = message.slice(exited + 1);
  return message.split('\n')[0].slice(0, 300);
}

/**
 * Give the owner write access throughout a copied tree: the fixture is read-only and a copy
 * keeps its modes, which would stop a non-root user from updating it (or deleting the copy).
 */
function makeWritable(path) {
  chmodSync(path, statSync(path).mode | 0o200);
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    const child = join(path, entry.name);
    if (entry.isDirectory()) makeWritable(child);
    else if (entry.isFile()) chmodSync(child, statSync(child).mode | 0o200);
  }
}

/** Copy each tree into `scratch` (never touching the originals) and preload its SQLite database. */
async function prepareTrees({ sizes, quick, scratch, log, trees }) {
  const prepared = [];
  const skipped = [];
  const notes = [];
  const source = fixtureTreeSource();
  const sources = [];
  if (existsSync(source)) {
    sources.push({ name: 'fixture', label: 'Sepo fixture tree', root: source, jsonFiles: undefined });
  } else {
    skipped.push(`fixture tree not found at ${source} (set REPOMEM_FIXTURE_TREE): fixture rows skipped`);
  }
  for (const jsonFiles of sizes) {
    const started = process.hrtime.bigint();
    // The runner may already hold this tree (the search suites use the 20,000-file one).
    const tree = trees.find((t) => t.name === `generated-${jsonFiles}`) ?? (await prepareGeneratedTree(jsonFiles));
    log(
      `sepo-cli: generated tree ${tree.reused ? 'reused' : 'written'} at ${tree.root} ` +
        `(${tree.files} files, ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s)`,
    );
    sources.push({ ...tree, jsonFiles });
  }
  for (const tree of sources) {
    const work = join(scratch, tree.name, 'tree');
    cpSync(tree.root, work, { recursive: true, verbatimSymlinks: true });
    makeWritable(work);
    const documents = tree.documents ?? readTreeDocuments(work);
    const files = Object.keys(documents).length;
    const bytes = Object.values(documents).reduce((sum, content) => sum + content.byteLength, 0);
    const sqliteCwd = join(scratch, tree.name, 'sqlite-cwd');
    const started = process.hrtime.bigint();
    const sqlite = await prepareSqlite(tree, documents, sqliteCwd);
    if (sqlite.note) notes.push(sqlite.note);
    log(
      `sepo-cli: ${tree.label}: copied to ${work}; SQLite ${sqlite.preloaded ? 'preloaded' : 'NOT preloaded'} ` +
        `(${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s)`,
    );
    prepared.push({
      tree: { ...tree, files, bytes },
      work,
      sqlite,
      originalMemory: documents['MEMORY.md'],
      commands: commandsFor(tree, work, sqliteCwd, join(scratch, tree.name, 'cache-home')),
      counts: plan(tree.jsonFiles, quick),
    });
  }
  return { prepared, skipped, notes };
}

/** Measure one tree's pairs: `{ a, b, count }` with command ids. */
function pairsOf(counts) {
  return [
    { a: 'dir', b: 'updateBaseline', count: counts.dir },
    { a: 'sqlite', b: 'node', count: counts.sqlite },
    { a: 'search', b: 'searchBaseline', count: counts.search },
    { a: 'searchNoCache', b: 'searchBaseline2', count: counts.search },
    { a: 'searchFirst', b: 'searchSecond', count: counts.search },
  ];
}

/** Run the Sepo-shaped CLI benchmark; returns a report section. */
export async function runSepoCli({ quick, log, sizes = DEFAULT_SEPO_CLI_SIZES, trees = [] }) {
  if (!existsSync(CLI_LAUNCHER)) throw new Error(`${CLI_LAUNCHER} is missing`);
  const env = childEnv();
  const scratch = mkdtempSync(join(tmpdir(), 'repomem-bench-sepo-cli-'));
  try {
    const { prepared, skipped, notes } = await prepareTrees({ sizes, quick, scratch, log, trees });
    const run = (state, id, round) => {
      const command = state.commands[id];
      command.before?.();
      const result = timeProcess(process.execPath, command.args(round), {
        cwd: command.cwd,
        env: command.env === undefined ? env : { ...env, ...command.env },
      });
      command.check?.(result.stdout);
      return result.ms;
    };

    // Per tree and pair: samples of A and B, or the reason the pair stopped.
    for (const state of prepared) {
      state.results = pairsOf(state.counts).map((pair) => ({
        ...pair,
        aSamples: [],
        bSamples: [],
        failure: undefined,
      }));
    }

    // JavaScript loaded, once per command on the first tree (module loading does not depend on the tree).
    const loaded = new Map();
    if (prepared.length > 0) {
      const first = prepared[0];
      log(`sepo-cli: JavaScript loaded per command (${first.tree.label})`);
      for (const [id, command] of Object.entries(first.commands)) {
        try {
          command.before?.();
          const commandEnv = command.env === undefined ? env : { ...env, ...command.env };
          loaded.set(
            id,
            measureLoadedJs(command.args('loaded-js'), { cwd: command.cwd, env: commandEnv, check: command.check }),
          );
        } catch (error) {
          loaded.set(id, { error: firstLine(error) });
        }
      }
    }

    // One untimed run of each command (checks its output, fills caches), then A B rounds with
    // every tree interleaved, so the tree-size comparison is made under the same machine load.
    for (const state of prepared) {
      for (const result of state.results) {
        try {
          run(state, result.a, 'warmup');
          run(state, result.b, 'warmup');
        } catch (error) {
          result.failure = firstLine(error);
        }
      }
    }
    const rounds = Math.max(0, ...prepared.flatMap((state) => state.results.map((result) => result.count)));
    log(`sepo-cli: ${rounds} paired rounds over ${prepared.length} trees`);
    for (let round = 0; round < rounds; round++) {
      for (const state of prepared) {
        for (const result of state.results) {
          if (result.failure || round >= result.count) continue;
          try {
            const a = run(state, result.a, round);
            const b = run(state, result.b, round);
            result.aSamples.push(a);
            result.bSamples.push(b);
          } catch (error) {
            result.failure = firstLine(error);
          }
        }
      }
    }

    const tables = [];
    const goals = [];
    for (const state of prepared) {
      const sqliteFailed = state.results.some((result) => result.a === 'sqlite' && result.failure);
      const scopeProblem = sqliteFailed
        ? undefined
        : await checkSqliteScope(state.sqlite, state.originalMemory).catch(
            (error) => `could not check the SQLite database after the run: ${firstLine(error)}`,
          );
      if (scopeProblem) skipped.push(`${state.tree.label}: ${scopeProblem}`);
      const rows = [];
      for (const result of state.results) {
        if (result.failure) {
          skipped.push(`${state.tree.label}: ${LABELS[result.a]} vs ${LABELS[result.b]} failed: ${result.failure}`);
          continue;
        }
        const bStats = summarize(result.bSamples);
        const aStats = summarize(result.aSamples);
        result.aStats = aStats;
        result.bStats = bStats;
        result.ratio = summarizeRatios(result.aSamples, result.bSamples);
        rows.push(
          { label: LABELS[result.a], kind: 'repomem', stats: aStats, baseline: LABELS[result.b], paired: result.ratio },
          {
            label: LABELS[result.b],
            kind: result.b === 'node' ? 'reference' : result.b === 'searchSecond' ? 'repomem' : 'baseline',
            stats: bStats,
          },
        );
      }
      const { tree } = state;
      tables.push({
        caption:
          `${tree.label}: ${tree.files.toLocaleString('en-US')} files, ${(tree.bytes / 1048576).toFixed(1)} MiB; ` +
          `pairs: ${state.counts.dir} update, ${state.counts.sqlite} SQLite update, ${state.counts.search} search`,
        rows,
      });
      const byA = new Map(state.results.map((result) => [result.a, result]));
      const dir = byA.get('dir');
      if (!dir.failure) {
        goals.push({
          goal: `\`repomem update add --dir\` on the ${treeName(tree)} <= ${DIR_GOAL_RATIO}x the Sepo-style update (paired median)`,
          measured: `${formatRatio(dir.ratio)}; p50 ${formatMs(dir.aStats.p50)} vs ${formatMs(dir.bStats.p50)} ms`,
          met: dir.ratio.p50 <= DIR_GOAL_RATIO,
        });
      }
      const sqlite = byA.get('sqlite');
      if (!sqlite.failure) {
        goals.push({
          goal: `\`repomem update add\` on SQLite holding the ${treeName(tree)} <= ${SQLITE_GOAL_RATIO}x \`node -e 0\` (paired median)`,
          measured: `${formatRatio(sqlite.ratio)}; p50 ${formatMs(sqlite.aStats.p50)} vs ${formatMs(sqlite.bStats.p50)} ms`,
          met: sqlite.ratio.p50 <= SQLITE_GOAL_RATIO,
        });
      }
    }
    goals.push(...searchGoals(prepared));
    goals.push(...flatnessGoals(prepared));
    tables.push({ caption: 'JavaScript loaded per command', markdown: loadedTable(loaded, prepared[0]?.tree) });

    return {
      id: 'sepo-cli',
      title: "Sepo-shaped CLI commands (process start to exit) next to Sepo's tools",
      intro:
        'Each row is the wall time of `spawnSync(node, argv)` from spawn to exit. Each repomem command is paired with ' +
        'its baseline and the two run in turn (A B A B ...); the paired column is the median of the per-pair ratios ' +
        'A/B (min-max), which holds when the machine speeds up or slows down during the run. Rounds go over every ' +
        'tree in turn, so trees of different sizes are measured under the same load. Each tree is a fresh copy in a ' +
        'temp directory (the originals are never modified); `update add` adds a new distinct bullet to ' +
        `\`## ${SECTION}\` of MEMORY.md on every call (checked: \`added bullet to ...\`); search queries rotate ` +
        "(the cold suite's). The SQLite working directory holds `.repomem/repomem.db` preloaded with every document " +
        'of the tree in the default scope, so the CLI resolves its default store exactly as an agent would. One ' +
        'untimed, checked run of every command first.',
      tables,
      ...(skipped.length > 0 ? { skipped } : {}),
      goals,
      notes: [
        ...notes,
        "The Sepo-style update baseline is a re-implementation of what Sepo's `update.js` does for `add` (read, edit " +
          'in memory, `<file>.lock` with O_EXCL, temp file + rename, release), in one file with no imports beyond ' +
          "`node:fs`. It does not fsync; repomem's directory store fsyncs the file and the directory and checks the " +
          'version under the lock, so part of the gap is durability the baseline does not offer.',
        '"JS loaded" counts every file the module loader loaded (ESM and CommonJS, recorded by a `--import` hook in ' +
          'an extra untimed run; built-in `node:` modules such as `node:sqlite` are not files and are not counted). ' +
          'Sizes are on-disk bytes of the loaded files.',
        "Commands run as `node packages/cli/bin/repomem.js ...` (the package's `bin`, which imports `dist/bin.js`); " +
          'an installed `repomem` shim adds a shell start on top on some platforms.',
      ],
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Search goals per tree: cached and uncached query vs the naive baseline, and the cache's speed-up. */
function searchGoals(prepared) {
  const goals = [];
  for (const state of prepared) {
    const byA = new Map(state.results.map((result) => [result.a, result]));
    const name = treeName(state.tree);
    for (const [id, what] of [
      ['search', 'with its analysis cache'],
      ['searchNoCache', 'without the analysis cache'],
    ]) {
      const result = byA.get(id);
      if (result === undefined || result.failure || result.ratio === undefined) continue;
      goals.push({
        goal: `\`repomem search --dir\` ${what} on the ${name} <= ${SEARCH_GOAL_RATIO.toFixed(1)}x the naive search (paired median)`,
        measured: `${formatRatio(result.ratio)}; p50 ${formatMs(result.aStats.p50)} vs ${formatMs(result.bStats.p50)} ms`,
        met: result.ratio.p50 <= SEARCH_GOAL_RATIO,
      });
    }
    const cache = byA.get('searchFirst');
    if (cache !== undefined && !cache.failure && cache.ratio !== undefined) {
      goals.push({
        goal: `on the ${name}, a query once the analysis cache is built >= ${CACHE_GOAL_SPEEDUP}x faster than the first query on the tree (paired median of first/later)`,
        measured: `${formatRatio(cache.ratio)}; p50 ${formatMs(cache.aStats.p50)} (first) vs ${formatMs(cache.bStats.p50)} ms (later)`,
        met: cache.ratio.p50 >= CACHE_GOAL_SPEEDUP,
      });
    }
  }
  return goals;
}

/** `update add --dir` (the stated goal) and SQLite (for information) on the largest vs the smallest generated tree. */
function flatnessGoals(prepared) {
  const generated = prepared.filter((state) => state.tree.jsonFiles !== undefined);
  if (generated.length < 2) return [];
  const small = generated.reduce((a, b) => (a.tree.jsonFiles <= b.tree.jsonFiles ? a : b));
  const large = generated.reduce((a, b) => (a.tree.jsonFiles >= b.tree.jsonFiles ? a : b));
  const goals = [];
  for (const [id, stated, name] of [
    ['dir', true, '`repomem update add --dir`'],
    ['sqlite', false, '`repomem update add` on SQLite'],
  ]) {
    const s = small.results.find((result) => result.a === id);
    const l = large.results.find((result) => result.a === id);
    if (s.failure || l.failure) continue;
    const growth = l.aStats.p50 / s.aStats.p50;
    goals.push({
      goal:
        `${stated ? '' : '(not a stated goal) '}${name} flat as the tree grows: p50 at ` +
        `${large.tree.files.toLocaleString('en-US')} files within ${Math.round((FLAT_GOAL_RATIO - 1) * 100)}% of ` +
        `${small.tree.files.toLocaleString('en-US')} files`,
      measured:
        `${growth.toFixed(2)}x (p50 ${formatMs(l.aStats.p50)} vs ${formatMs(s.aStats.p50)} ms; paired ratio to its ` +
        `baseline ${l.ratio.p50.toFixed(2)}x vs ${s.ratio.p50.toFixed(2)}x)`,
      met: growth <= FLAT_GOAL_RATIO,
    });
  }
  return goals;
}

/** Markdown table of the JavaScript each command loaded. */
function loadedTable(loaded, tree) {
  if (loaded.size === 0) return '_No tree was prepared; nothing measured._';
  const kib = ({ files, bytes }) => (files === 0 ? '-' : formatLoaded({ files, bytes }));
  const rows = [...loaded.entries()].map(([id, summary]) => {
    if (summary.error) return [LABELS[id], `failed: ${summary.error}`, '', '', '', ''];
    const c = summary.byCategory;
    return [LABELS[id], formatLoaded(summary), kib(c.cliDist), kib(c.packagesDist), kib(c.thirdParty), kib(c.other)];
  });
  return [
    `Measured on the ${tree.label}. KiB = 1,024 bytes.`,
    '',
    markdownTable(
      ['command', 'total', 'packages/cli/dist', 'other packages/*/dist', 'node_modules', 'other files'],
      rows,
    ),
  ].join('\n');
}
