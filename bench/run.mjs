// Why: `pnpm bench` / `./dev bench` entry point. Prepares the trees, runs every suite (cold CLI
// search, warm library search, bullet updates, Sepo-shaped CLI commands...) with its baselines in
// the same run, prints each table as it completes and overwrites bench/RESULTS.md with the
// command, date, machine, tables, goals and notes.
//
//   node bench/run.mjs            full run (several minutes on 2 cores)
//   node bench/run.mjs --quick    fewer iterations (smoke run)
//   node bench/run.mjs --only=cold,warm,update,git-commit,git-history,verified,sqlite-search,sepo-cli,branch-scope
//                                 run some suites; prints only, RESULTS.md is left untouched
//   node bench/run.mjs sepo-cli   same as --only=sepo-cli (suite names may be given as arguments)
//   node bench/run.mjs sepo-cli --quick --small
//                                 quick small run: generated trees of 200 and 2,000 files only
//                                 (--small is --sizes=200,2000; --sizes=N,... picks any sizes)
//
// Suites are imported when they run, so a suite that cannot load (a package mid-migration) is
// reported as failed while the others still run; RESULTS.md is then left untouched and the exit
// code is 1.
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { machineFacts } from './lib/machine.mjs';
import { renderReport, renderSection } from './lib/report.mjs';
import { CORPUS_DIR, fixtureTreeSource, prepareFixtureTree, prepareGeneratedTree, REPO_ROOT } from './lib/trees.mjs';

/** The built CLI entry point the CLI suites spawn (checked before anything runs). */
const CLI_BIN = join(REPO_ROOT, 'packages', 'cli', 'dist', 'bin.js');
const GENERATED_JSON_FILES = 20_000;
/** Every suite by name, in run order: the module to import and the function it exports. */
const SUITE_MODULES = {
  cold: ['./suites/search-cold.mjs', 'runColdSearch'],
  warm: ['./suites/search-warm.mjs', 'runWarmSearch'],
  update: ['./suites/bullet-update.mjs', 'runBulletUpdate'],
  'git-commit': ['./suites/git-commit.mjs', 'runGitCommit'],
  'git-history': ['./suites/git-history.mjs', 'runGitHistory'],
  verified: ['./suites/verified-memory.mjs', 'runVerifiedMemory'],
  'sqlite-search': ['./suites/sqlite-search.mjs', 'runSqliteSearch'],
  'sepo-cli': ['./suites/sepo-cli.mjs', 'runSepoCli'],
  mcp: ['./suites/mcp.mjs', 'runMcp'],
  agentcore: ['./suites/agentcore.mjs', 'runAgentCore'],
  dynamodb: ['./suites/dynamodb.mjs', 'runDynamoDb'],
  'github-sync': ['./suites/github-sync.mjs', 'runGitHubSync'],
  hydrate: ['./suites/hydrate.mjs', 'runHydrate'],
  postgres: ['./suites/postgres.mjs', 'runPostgres'],
  lexical: ['./suites/lexical.mjs', 'runLexical'],
  relevance: ['./suites/relevance.mjs', 'runRelevance'],
  vectors: ['./suites/vectors.mjs', 'runVectors'],
  'review-rules': ['./suites/review-rules.mjs', 'runReviewRules'],
  'branch-scope': ['./suites/branch-scope.mjs', 'runBranchScope'],
};
const SUITES = Object.keys(SUITE_MODULES);

const USAGE =
  `usage: node bench/run.mjs [suite ...] [--quick] [--only=${SUITES.join(',')}] [--small | --sizes=N,...]\n` +
  '  suite ...     run only these suites (same as --only); RESULTS.md is written only when every suite runs\n' +
  '  --quick       fewer iterations (smoke run)\n' +
  '  --sizes=N,... sepo-cli: generated tree sizes in JSON mirror files (default 200,2000,20000)\n' +
  '  --small       sepo-cli: same as --sizes=200,2000 (with --quick: a small smoke run of a few seconds)\n';

function parseSuiteNames(names, source) {
  const unknown = names.filter((name) => !SUITES.includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(`${source} takes suite names among ${SUITES.join(', ')}; got ${names.join(',') || '(none)'}`);
  }
  return names;
}

function parseArguments(argv) {
  const options = { quick: false, only: SUITES, sizes: undefined };
  const positional = [];
  for (const arg of argv) {
    if (arg === '--quick') options.quick = true;
    else if (arg === '--small') options.sizes = [200, 2_000];
    else if (arg.startsWith('--only=')) {
      options.only = parseSuiteNames(arg.slice('--only='.length).split(',').filter(Boolean), '--only');
    } else if (arg.startsWith('--sizes=')) {
      options.sizes = arg
        .slice('--sizes='.length)
        .split(',')
        .map((size) => Number(size.replace(/_/g, '')));
      if (options.sizes.length === 0 || options.sizes.some((size) => !Number.isInteger(size) || size < 1)) {
        throw new Error(`--sizes takes a comma-separated list of positive whole numbers; got ${arg}`);
      }
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else if (!arg.startsWith('-')) positional.push(arg);
    else throw new Error(`unknown argument: ${arg} (try --help)`);
  }
  if (positional.length > 0) {
    const named = parseSuiteNames(positional, 'the suite list');
    options.only = options.only === SUITES ? named : [...new Set([...options.only, ...named])];
  }
  return options;
}

const log = (line) => process.stderr.write(`[bench] ${line}\n`);

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const started = process.hrtime.bigint();
  const date = new Date().toISOString();
  const loadAtStart = os.loadavg()[0];
  if (!existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing: run \`./dev bench\` or \`pnpm build\` first`);

  const notes = [];
  const needsTrees = ['cold', 'warm', 'sqlite-search'].some((name) => options.only.includes(name));
  const trees = [];
  if (needsTrees) {
    const fixture = prepareFixtureTree();
    if (fixture) {
      log(`fixture tree copied to ${fixture.root} (${fixture.files} files)`);
      trees.push(fixture);
    } else {
      const message = `fixture tree not found at ${fixtureTreeSource()} (set REPOMEM_FIXTURE_TREE): fixture benchmarks skipped`;
      log(message);
      notes.push(message);
    }
    const t = process.hrtime.bigint();
    const generated = await prepareGeneratedTree(GENERATED_JSON_FILES);
    log(
      `generated tree ${generated.reused ? 'reused' : 'written'} at ${generated.root} (${generated.files} files, ` +
        `${(Number(process.hrtime.bigint() - t) / 1e9).toFixed(1)} s)`,
    );
    trees.push(generated);
  }

  const sections = [];
  const failed = [];
  for (const name of SUITES) {
    if (!options.only.includes(name)) continue;
    let section;
    try {
      const [modulePath, exportName] = SUITE_MODULES[name];
      const runner = (await import(modulePath))[exportName];
      section = await runner({ trees, quick: options.quick, sizes: options.sizes, log });
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`suite ${name} failed: ${message}`);
      failed.push(name);
      continue;
    }
    if (trees.every((tree) => tree.name !== 'fixture') && (name === 'cold' || name === 'warm')) {
      section.skipped = [`fixture tree absent (${fixtureTreeSource()})`];
    }
    sections.push(section);
    process.stdout.write(`\n${renderSection(section)}\n`);
  }

  const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
  notes.push(
    `Trees live under \`${CORPUS_DIR.slice(REPO_ROOT.length + 1)}/\` (gitignored): a fresh copy of the fixture tree each run, ` +
      `and the generated tree (\`generateMemoryCorpus({ seed: 'repomem-bench', jsonFiles: ${GENERATED_JSON_FILES} })\` ` +
      'from `@repomem/core/testing`), rewritten only when its content digest changes.',
    'Every figure comes from the built packages (`packages/*/dist`); rebuild before benchmarking changes.',
  );
  if (failed.length > 0) {
    log(`suites failed: ${failed.join(', ')}; bench/RESULTS.md left untouched (${(durationMs / 1000).toFixed(0)} s)`);
    process.exitCode = 1;
    return;
  }
  if (options.only.length !== SUITES.length || options.sizes !== undefined) {
    log(`some suites or sizes only: bench/RESULTS.md left untouched (${(durationMs / 1000).toFixed(0)} s)`);
    return;
  }
  const args = process.argv.slice(2).join(' ');
  // `pnpm bench` sets npm_lifecycle_event; `./dev bench` builds, then runs `node bench/run.mjs` directly.
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: set by the package manager; the bench runs outside turbo
  const launcher = process.env.npm_lifecycle_event === 'bench' ? 'pnpm bench' : 'node bench/run.mjs';
  const command = args ? `${launcher} ${args}` : launcher;
  const report = renderReport({
    command,
    date,
    quick: options.quick,
    durationMs,
    machine: machineFacts(loadAtStart),
    sections,
    notes,
  });
  const target = join(REPO_ROOT, 'bench', 'RESULTS.md');
  writeFileSync(target, report);
  log(`wrote ${target} (${(durationMs / 1000).toFixed(0)} s)`);
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
