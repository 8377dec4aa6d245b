// Why: a published package must resolve with types under every module resolution a consumer may
// use (node10, node16 from CommonJS and ESM, bundler), including subpaths such as `./testing`.
// This gate packs every publishable package exactly as `./dev pack` does and runs
// @arethetypeswrong/cli (attw) on each tarball, two at a time. Passing packages get one line each;
// a failing one prints attw's full report.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { packAll, ROOT } from './pack.mjs';

const attw = join(ROOT, 'node_modules', '.bin', 'attw');
const dir = mkdtempSync(join(tmpdir(), 'repomem-attw-'));

/** attw on one tarball: its exit code and output. */
function check(tarball) {
  return new Promise((resolvePromise) => {
    const child = spawn(attw, [tarball, '--format', 'ascii'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => resolvePromise({ code: 1, output: `${error.message}\n` }));
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}

let failed = 0;
try {
  const queue = packAll(dir);
  const worker = async () => {
    for (let tarball = queue.shift(); tarball !== undefined; tarball = queue.shift()) {
      const { code, output } = await check(tarball);
      if (code === 0) {
        process.stdout.write(`attw ${basename(tarball)}: no problems (node10, node16 CJS and ESM, bundler)\n`);
      } else {
        failed += 1;
        process.stdout.write(`attw ${basename(tarball)}: PROBLEMS (exit ${code})\n${output}\n`);
      }
    }
  };
  await Promise.all([worker(), worker()]);
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  failed += 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed === 0 ? 0 : 1);
