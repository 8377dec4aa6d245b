// Why: the single "whole test suite" command behind `./dev test`, `pnpm test` and CI. It runs
// every quality gate in order (build, lint, typecheck, publint, tests, API docs) and ends with
// one plain line "N passed, N failed, N skipped" totalled across all packages from vitest's
// JSON report, because CI reads that line and nothing else.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const resultsFile = join(root, '.vitest-results.json');
const bin = (name) => join(root, 'node_modules', '.bin', name);

/** @type {Array<[string, string, string[]]>} */
const gates = [
  ['build', bin('turbo'), ['run', 'build', '--output-logs=errors-only']],
  ['lint', bin('biome'), ['ci', '.']],
  ['typecheck', bin('turbo'), ['run', 'typecheck', '--output-logs=errors-only']],
  ['publint', bin('turbo'), ['run', 'publint', '--output-logs=errors-only']],
];
const failed = [];
const run = (name, cmd, args) => {
  const started = Date.now();
  process.stdout.write(`\n=== ${name} ===\n`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  const ok = r.status === 0;
  process.stdout.write(
    `=== ${name}: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} in ${((Date.now() - started) / 1000).toFixed(1)}s ===\n`,
  );
  if (!ok) failed.push(name);
  return ok;
};

const buildOk = run(...gates[0]);
for (const gate of gates.slice(1)) run(...gate);

rmSync(resultsFile, { force: true });
if (buildOk) {
  run('tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${resultsFile}`]);
} else {
  failed.push('tests (not run: build failed)');
}
run('docs', bin('typedoc'), []);

let passed = 0;
let failedTests = 0;
let skipped = 0;
if (existsSync(resultsFile)) {
  const report = JSON.parse(readFileSync(resultsFile, 'utf8'));
  passed = report.numPassedTests ?? 0;
  failedTests = report.numFailedTests ?? 0;
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A suite file that fails to load reports no tests: count it as a failure.
  const brokenFiles = (report.testResults ?? []).filter(
    (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
  );
  failedTests += brokenFiles.length;
}
if (failed.length) process.stdout.write(`\nFailed gates: ${failed.join(', ')}\n`);
process.stdout.write(`\n${passed} passed, ${failedTests} failed, ${skipped} skipped\n`);
process.exit(failed.length || failedTests ? 1 : 0);
