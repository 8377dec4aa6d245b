// Why: a shortcut to the git store's two benchmarks, which live in the root bench runner
// (`bench/suites/git-commit.mjs`, `bench/suites/git-history.mjs`) so `pnpm bench` records them
// with the others. Prints their Markdown sections; RESULTS.md is left untouched.
//
//   node packages/store-git/bench/commit-bench.mjs [--quick]
//   (same as: node bench/run.mjs --only=git-commit,git-history [--quick])
import { renderSection } from '../../../bench/lib/report.mjs';
import { runGitCommit } from '../../../bench/suites/git-commit.mjs';
import { runGitHistory } from '../../../bench/suites/git-history.mjs';

const quick = process.argv.includes('--quick');
const log = (line) => process.stderr.write(`[store-git bench] ${line}\n`);
for (const run of [runGitCommit, runGitHistory]) {
  process.stdout.write(`\n${renderSection(await run({ trees: [], quick, log }))}\n`);
}
