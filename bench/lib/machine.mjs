// Why: figures mean little without the machine and code they came from, so every report
// records the CPU, memory, Node version, platform and the commit benchmarked.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { REPO_ROOT } from './trees.mjs';

function gitRevision() {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${commit} (with uncommitted changes)` : commit;
  } catch {
    return 'unknown';
  }
}

/**
 * Facts about the machine and checkout, as `[name, value]` pairs. `loadAtStart` is the 1-minute
 * load average read when the run began: other processes competing for the CPUs show up there.
 */
export function machineFacts(loadAtStart) {
  const cpus = os.cpus();
  return [
    ['CPU', `${cpus[0]?.model ?? 'unknown'} x ${cpus.length}`],
    ['memory', `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`],
    ['Node', process.version],
    ['platform', `${process.platform} ${process.arch} (${os.type()} ${os.release()})`],
    ['load average (1 min)', `${loadAtStart?.toFixed(2) ?? '?'} at start, ${os.loadavg()[0].toFixed(2)} at end`],
    ['commit', gitRevision()],
  ];
}
