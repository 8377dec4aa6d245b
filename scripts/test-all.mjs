// Why: the single "whole test suite" command behind `./dev test`, `pnpm test` and CI. It runs
// every quality gate in order (build, lint, typecheck, publint, attw, tests, the floor Node's
// tests, API docs) and ends with the line "N passed, N failed" (skipped tests on the line before
// it), totalled across all packages from vitest's JSON reports (a failed gate counts as one
// failure), because CI reads that last line.
//
// The floor: `engines.node` promises an oldest Node (22.16: `node:sqlite` has FTS5 from there on),
// so the tests that exercise `node:sqlite`, the CLI, the examples and the installed tarballs also
// run under exactly that Node, fetched from the npm registry into .toolchain/floor/ once.
//
//   node scripts/test-all.mjs               every gate (what `./dev test` and CI run)
//   node scripts/test-all.mjs --floor-only  only the floor Node's tests (packages already built)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_FLOOR } from './node-floor.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const resultsFile = join(root, '.vitest-results.json');
const floorResultsFile = join(root, '.vitest-floor-results.json');
const floorDir = join(root, '.toolchain', 'floor');
const floorNode = join(floorDir, 'node_modules', '.bin', 'node');
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** Vitest projects (and files of the repository project) that also run under the floor Node. */
const FLOOR_SELECTION = [
  '--project=store-sqlite',
  '--project=cli',
  '--project=examples',
  '--project=repo',
  'packages/store-sqlite/',
  'packages/cli/',
  'examples/',
  'tests/node-floor.test.ts',
  'tests/pack-install.test.ts',
  'tests/readme-quickstart.test.ts',
  'tests/readme-blocks.test.ts',
];

// Colour codes only on a terminal: a redirected log (CI) gets plain text.
const tty = process.stdout.isTTY === true;
// (FORCE_COLOR is dropped, not set to 0: Node warns when both are set.)
const env = { ...process.env, npm_config_update_notifier: 'false' };
if (!tty) {
  env.NO_COLOR = '1';
  delete env.FORCE_COLOR;
}
const noColor = (flag) => (tty ? [] : [flag]);

/** @type {Array<[string, string, string[]]>} */
const gates = [
  ['build', bin('turbo'), ['run', 'build', '--output-logs=errors-only', ...noColor('--no-color')]],
  ['lint', bin('biome'), ['ci', ...noColor('--colors=off'), '.']],
  ['typecheck', bin('turbo'), ['run', 'typecheck', '--output-logs=errors-only', ...noColor('--no-color')]],
  ['typecheck tests/', bin('tsc'), ['-p', 'tests/tsconfig.json', ...(tty ? [] : ['--pretty', 'false'])]],
  ['publint', bin('turbo'), ['run', 'publint', '--output-logs=errors-only', ...noColor('--no-color')]],
  ['attw', process.execPath, [join(root, 'scripts', 'check-package-types.mjs')]],
];
const failed = [];
/** ANSI escape sequences (colours, cursor moves) and a trailing, possibly cut one. */
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const PARTIAL_ANSI = /\x1b(\[[0-9;?]*)?$/;

/** Copy a child's output to ours without escape codes (off a terminal; some tools always colour). */
function relay(from, to) {
  let held = '';
  from.setEncoding('utf8');
  from.on('data', (chunk) => {
    const text = held + chunk;
    const cut = PARTIAL_ANSI.exec(text);
    held = cut === null ? '' : cut[0];
    to.write(text.slice(0, text.length - held.length).replace(ANSI, ''));
  });
  from.on('end', () => to.write(held.replace(ANSI, '')));
}

const run = async (name, cmd, args, options = {}) => {
  const started = Date.now();
  process.stdout.write(`\n=== ${name} ===\n`);
  const stdio = tty ? 'inherit' : ['inherit', 'pipe', 'pipe'];
  const child = spawn(cmd, args, { cwd: root, stdio, env: options.env ?? env });
  if (!tty) {
    relay(child.stdout, process.stdout);
    relay(child.stderr, process.stderr);
  }
  const [code, signal] = await new Promise((resolvePromise) => {
    child.on('error', () => resolvePromise([127, null]));
    child.on('close', (exitCode, exitSignal) => resolvePromise([exitCode, exitSignal]));
  });
  const ok = code === 0;
  process.stdout.write(
    `=== ${name}: ${ok ? 'ok' : `FAILED (exit ${code ?? signal})`} in ${((Date.now() - started) / 1000).toFixed(1)}s ===\n`,
  );
  if (!ok) failed.push(name);
  return ok;
};

/** Fetch the floor Node into .toolchain/floor/ unless it is there already; its path, or undefined. */
function provisionFloorNode() {
  const version = () => spawnSync(floorNode, ['--version'], { encoding: 'utf8' }).stdout?.trim();
  if (existsSync(floorNode) && version() === `v${NODE_FLOOR}`) return floorNode;
  process.stdout.write(`fetching node@${NODE_FLOOR} from the npm registry into .toolchain/floor/\n`);
  mkdirSync(floorDir, { recursive: true });
  writeFileSync(join(floorDir, 'package.json'), '{"name":"repomem-floor-node","private":true}\n');
  const npm = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-save', '--loglevel=error', `node@${NODE_FLOOR}`],
    { cwd: floorDir, stdio: 'inherit', env },
  );
  if (npm.status !== 0 || version() !== `v${NODE_FLOOR}`) {
    process.stdout.write(`could not fetch node@${NODE_FLOOR} (npm exit ${npm.status ?? npm.signal})\n`);
    return undefined;
  }
  return floorNode;
}

/** Totals of a vitest JSON report (a suite file that fails to load counts as one failure). */
function totals(file) {
  if (!existsSync(file)) return undefined;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const brokenFiles = (report.testResults ?? []).filter(
    (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
  );
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + brokenFiles.length,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
}

const floorOnly = process.argv.includes('--floor-only');
const buildOk = floorOnly || (await run(...gates[0]));
if (!floorOnly) for (const gate of gates.slice(1)) await run(...gate);

rmSync(resultsFile, { force: true });
rmSync(floorResultsFile, { force: true });
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
// One test file per CPU. Vitest's own default in a run is one fewer than the CPUs, which on a
// two-core CI machine is a single worker; most files wait on child processes, servers and disks,
// so two workers there cut the tests gate from 373 s to 245 s with the same results.
const workers = Math.max(2, availableParallelism());
const vitestArgs = (file) => [
  'run',
  `--maxWorkers=${workers}`,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${file}`,
];
if (buildOk) {
  if (!floorOnly) await run('tests', process.execPath, [vitest, ...vitestArgs(resultsFile)]);
  process.stdout.write(`\n=== floor: Node ${NODE_FLOOR} ===\n`);
  const floor = provisionFloorNode();
  if (floor === undefined) {
    failed.push(`floor (node@${NODE_FLOOR} not available)`);
  } else {
    const floorEnv = { ...env, PATH: `${dirname(floor)}:${env.PATH ?? ''}` };
    await run(`tests on Node ${NODE_FLOOR}`, floor, [vitest, ...vitestArgs(floorResultsFile), ...FLOOR_SELECTION], {
      env: floorEnv,
    });
  }
} else {
  failed.push('tests (not run: build failed)');
}
if (!floorOnly) await run('docs', bin('typedoc'), []);

const main = totals(resultsFile) ?? { passed: 0, failed: 0, skipped: 0 };
const atFloor = totals(floorResultsFile);
if (failed.length) process.stdout.write(`\nFailed gates: ${failed.join(', ')}\n`);
if (!floorOnly) {
  process.stdout.write(
    `\nNode ${process.versions.node}: ${main.passed} passed, ${main.failed} failed, ${main.skipped} skipped\n`,
  );
}
if (atFloor !== undefined) {
  process.stdout.write(
    `Node ${NODE_FLOOR} (floor): ${atFloor.passed} passed, ${atFloor.failed} failed, ${atFloor.skipped} skipped\n`,
  );
}
const all = [main, atFloor ?? { passed: 0, failed: 0, skipped: 0 }];
const sum = (key) => all.reduce((total, part) => total + part[key], 0);
// A failed gate other than a test run (build, lint, docs...) counts as one failure, so the last
// line never reads "0 failed" for a suite that did not pass.
const gateFailures = failed.filter((name) => !name.startsWith('tests')).length;
process.stdout.write(`${sum('skipped')} skipped\n`);
process.stdout.write(`${sum('passed')} passed, ${sum('failed') + gateFailures} failed\n`);
process.exit(failed.length || sum('failed') ? 1 : 0);
