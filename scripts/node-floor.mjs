// Why: the oldest supported Node is written once, in the root package.json's `engines.node`
// (`>=22.16`: `node:sqlite` has FTS5 from 22.16 on); the test command, the pack script and the
// repository tests read it from there instead of repeating the number.
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const match = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(manifest.engines?.node ?? '');
if (match === null) throw new Error(`root package.json: engines.node must read ">=X.Y", not ${manifest.engines?.node}`);

/** The floor as `X.Y.Z` (for example `22.16.0`), the exact Node version CI tests. */
export const NODE_FLOOR = `${match[1]}.${match[2]}.${match[3] ?? '0'}`;

/** True when `version` (`process.versions.node` style) is at or above the floor. */
export function meetsNodeFloor(version) {
  const have = version.replace(/^v/, '').split('.').map(Number);
  const want = NODE_FLOOR.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    if ((have[i] ?? 0) !== want[i]) return (have[i] ?? 0) > want[i];
  }
  return true;
}
