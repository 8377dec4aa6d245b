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

/**
 * The service's documented per-operation rates in requests per second (AgentCore Memory quotas):
 * CreateEvent with a conversational payload per actor and session, record listing and retrieval
 * per memory, and the default for every other operation per memory.
 */
export const SERVICE_QUOTAS_TPS = {
  conversationalCreateEventPerSession: 5,
  recordReads: 30,
  default: 20,
} as const;

/** One sliding one-second window per quota key (operation, memory and, for events, session). */
export class QuotaBook {
  private readonly windows = new Map<string, RateLimiter>();

  /** True when a request under `key` with that per-second `limit` is admitted at `nowMs`. */
  admit(key: string, limit: number, nowMs: number): boolean {
    let window = this.windows.get(key);
    if (!window) {
      window = new RateLimiter(limit);
      this.windows.set(key, window);
    }
    return window.admit(nowMs);
  }
}

/** The quota key and limit of a validated request under the service's documented quotas. */
export function serviceQuota(
  operation: string,
  memoryId: string,
  input: Readonly<Record<string, unknown>>,
): { readonly key: string; readonly limit: number } {
  if (operation === 'CreateEvent') {
    const payload = Array.isArray(input.payload) ? input.payload : [];
    const conversational = payload.some(
      (item: unknown) => typeof item === 'object' && item !== null && 'conversational' in item,
    );
    if (conversational) {
      return {
        key: `${memoryId}\nCreateEvent\n${String(input.actorId)}\n${String(input.sessionId ?? '')}`,
        limit: SERVICE_QUOTAS_TPS.conversationalCreateEventPerSession,
      };
    }
  }
  if (operation === 'ListMemoryRecords' || operation === 'RetrieveMemoryRecords') {
    return { key: `${memoryId}\n${operation}`, limit: SERVICE_QUOTAS_TPS.recordReads };
  }
  return { key: `${memoryId}\n${operation}`, limit: SERVICE_QUOTAS_TPS.default };
}
