// Why: start-up cost of a CLI grows with the JavaScript it loads, so each command's figures come
// with the files its module loader actually loaded (see load-recorder.mjs): how many and how
// many KiB, split into the CLI's own dist, the other repomem packages' dist, third-party
// node_modules, and anything else (the baseline scripts).
import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { timeProcess } from './measure.mjs';
import { REPO_ROOT } from './trees.mjs';

const RECORDER = join(REPO_ROOT, 'bench', 'lib', 'load-recorder.mjs');
const CLI_DIST = join(REPO_ROOT, 'packages', 'cli', 'dist') + sep;
const PACKAGES = join(REPO_ROOT, 'packages') + sep;

/** Which bucket a loaded file falls in. */
function categoryOf(path) {
  if (path.split(sep).includes('node_modules')) return 'thirdParty';
  if (path.startsWith(CLI_DIST)) return 'cliDist';
  if (path.startsWith(PACKAGES) && path.split(sep).includes('dist')) return 'packagesDist';
  return 'other';
}

/**
 * Run `node --import load-recorder.mjs <args>` once (untimed) and return the files it loaded:
 * `{ files, bytes, byCategory: { cliDist, packagesDist, thirdParty, other }: { files, bytes } }`.
 * Throws like `timeProcess` when the command fails. `check(stdout)` may throw on bad output.
 */
export function measureLoadedJs(args, { cwd, env, check } = {}) {
  const scratch = mkdtempSync(join(tmpdir(), 'repomem-bench-loaded-'));
  const output = join(scratch, 'loaded.json');
  try {
    const result = timeProcess(process.execPath, ['--import', RECORDER, ...args], {
      cwd,
      env: { ...(env ?? process.env), REPOMEM_BENCH_LOADED_JS: output },
    });
    check?.(result.stdout);
    const urls = JSON.parse(readFileSync(output, 'utf8'));
    const empty = () => ({ files: 0, bytes: 0 });
    const summary = {
      files: 0,
      bytes: 0,
      byCategory: { cliDist: empty(), packagesDist: empty(), thirdParty: empty(), other: empty() },
    };
    for (const url of urls) {
      const path = realpathSync(fileURLToPath(url));
      const bytes = statSync(path).size;
      const bucket = summary.byCategory[categoryOf(path)];
      bucket.files += 1;
      bucket.bytes += bytes;
      summary.files += 1;
      summary.bytes += bytes;
    }
    return summary;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `905 KiB in 14 files` style cell text. */
export function formatLoaded({ files, bytes }) {
  if (files === 0) return '0 files';
  return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KiB in ${files} file${files === 1 ? '' : 's'}`;
}
