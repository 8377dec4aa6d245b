// Why: `pnpm bench` / `./dev bench` entry point. Prepares the trees, runs every suite (cold CLI
// search, warm library search, bullet updates) with its baselines in the same run, prints each
// table as it completes and overwrites bench/RESULTS.md with the command, date, machine, tables,
// goals and notes.
//
//   node bench/run.mjs            full run (a few minutes on 2 cores)
//   node bench/run.mjs --quick    fewer iterations (smoke run)
//   node bench/run.mjs --only=cold,warm,update,git-commit,git-history,verified,sqlite-search
//                                 run some suites; prints only, RESULTS.md is left untouched
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { machineFacts } from './lib/machine.mjs';
import { renderReport, renderSection } from './lib/report.mjs';
import { CORPUS_DIR, fixtureTreeSource, prepareFixtureTree, prepareGeneratedTree, REPO_ROOT } from './lib/trees.mjs';
import { runBulletUpdate } from './suites/bullet-update.mjs';
import { runGitCommit } from './suites/git-commit.mjs';
import { runGitHistory } from './suites/git-history.mjs';
import { CLI_BIN, runColdSearch } from './suites/search-cold.mjs';
import { runWarmSearch } from './suites/search-warm.mjs';
import { runSqliteSearch } from './suites/sqlite-search.mjs';
import { runVerifiedMemory } from './suites/verified-memory.mjs';

const GENERATED_JSON_FILES = 20_000;
const SUITES = ['cold', 'warm', 'update', 'git-commit', 'git-history', 'verified', 'sqlite-search'];

function parseArguments(argv) {
  const options = { quick: false, only: SUITES };
  for (const arg of argv) {
    if (arg === '--quick') options.quick = true;
    else if (arg.startsWith('--only=')) {
      options.only = arg.slice('--only='.length).split(',').filter(Boolean);
      const unknown = options.only.filter((name) => !SUITES.includes(name));
      if (unknown.length > 0 || options.only.length === 0) {
        throw new Error(`--only takes a comma-separated list of ${SUITES.join(', ')}; got ${arg}`);
      }
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(`usage: node bench/run.mjs [--quick] [--only=${SUITES.join(',')}]\n`);
      process.exit(0);
    } else throw new Error(`unknown argument: ${arg} (try --help)`);
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
  const runners = {
    cold: runColdSearch,
    warm: runWarmSearch,
    update: runBulletUpdate,
    'git-commit': runGitCommit,
    'git-history': runGitHistory,
    verified: runVerifiedMemory,
    'sqlite-search': runSqliteSearch,
  };
  for (const name of SUITES) {
    if (!options.only.includes(name)) continue;
    const section = await runners[name]({ trees, quick: options.quick, log });
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
  if (options.only.length !== SUITES.length) {
    log(`--only: bench/RESULTS.md left untouched (${(durationMs / 1000).toFixed(0)} s)`);
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
