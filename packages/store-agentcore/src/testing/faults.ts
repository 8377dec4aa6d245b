// Why: the faults and throttling a client must survive, drawn from a seeded random source so a
// failing run replays exactly, and a one-second sliding window for the requests-per-second quota.

/** A fault kind the emulator can inject. */
export type FaultKind = 'throttle' | 'server-error' | 'reset' | 'slow' | 'truncated';

/** Deterministic random numbers in [0, 1) (mulberry32). */
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

/** Draws whether a request gets a fault and which one. */
export class FaultPlan {
  private readonly random: () => number;
  private readonly rate: number;
  private readonly kinds: readonly FaultKind[];
  private remaining: number;

  constructor(rate: number, kinds: readonly FaultKind[], seed: number, maxFaults = Number.POSITIVE_INFINITY) {
    this.random = seededRandom(seed);
    this.rate = rate;
    this.kinds = kinds;
    this.remaining = maxFaults;
  }

  /** The fault for the next request, or undefined. Always draws twice so runs stay aligned. */
  next(): FaultKind | undefined {
    const roll = this.random();
    const pick = this.random();
    if (this.kinds.length === 0 || roll >= this.rate || this.remaining <= 0) return undefined;
    this.remaining -= 1;
    return this.kinds[Math.min(this.kinds.length - 1, Math.floor(pick * this.kinds.length))];
  }

  /** A further draw in [0, 1) for a fault's own choices (e.g. 500 or 503). */
  coin(): number {
    return this.random();
  }
}

/** Admits at most `perSecond` requests in any sliding one-second window. */
export class RateLimiter {
  private readonly perSecond: number;
  private readonly admitted: number[] = [];

  constructor(perSecond: number) {
    this.perSecond = perSecond;
  }

  /** True when a request arriving at `nowMs` is within the quota (and counts it). */
  admit(nowMs: number): boolean {
    while (this.admitted.length > 0 && (this.admitted[0] ?? 0) <= nowMs - 1000) this.admitted.shift();
    if (this.admitted.length >= this.perSecond) return false;
    this.admitted.push(nowMs);
    return true;
  }
}
