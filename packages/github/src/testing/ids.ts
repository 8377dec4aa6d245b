// Why: the small deterministic helpers the generator, the fixture loader and the data set share:
// GitHub-looking node ids, timestamps in GitHub's format (to the second, `Z`), and a seeded random
// number generator so a seed always yields the same repository and the same injected faults.

/** A GitHub-looking global node id: `<prefix>_lb<base64url of the key>` (prefixes as GitHub's: `I`, `PR`, `IC`...). */
export function nodeId(prefix: string, key: string): string {
  return `${prefix}_lb${Buffer.from(key, 'utf8').toString('base64url')}`;
}

/** `date` in GitHub's DateTime format: ISO 8601 to the second, UTC (`2026-05-02T17:45:06Z`). */
export function gitHubTime(date: Date | number): string {
  return new Date(date).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A timestamp strictly after `previous` and not before now, in GitHub's format (bumped `updatedAt`). */
export function laterTime(previous: string): string {
  const now = Math.floor(Date.now() / 1000) * 1000;
  const after = Date.parse(previous) + 1000;
  return gitHubTime(Math.max(now, Number.isNaN(after) ? now : after));
}

/** Seeded pseudo-random numbers in [0, 1) (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 40-hex-digit commit id derived from `key`. */
export function fakeOid(key: string): string {
  let hex = '';
  let h = 2166136261;
  while (hex.length < 40) {
    for (const ch of `${key}:${hex.length}`) {
      h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    }
    hex += h.toString(16).padStart(8, '0');
  }
  return hex.slice(0, 40);
}
