// Why: GitHub meters GraphQL in points per hour and REST in requests per hour, in separate
// buckets, and reports each on every response in `x-ratelimit-*` headers. A bucket here does the
// same bookkeeping (window reset included) so a client's quota handling sees real numbers.

/** One rate-limit bucket (`graphql` points or `core` requests). */
export class RateLimitBucket {
  readonly #limit: number;
  #used: number;
  #resetAt: number;

  /**
   * @param resource - GitHub's name for the bucket (`graphql`, `core`).
   * @param limit - points (or requests) per hour.
   * @param remaining - what is left at start (default: the whole limit).
   */
  constructor(
    readonly resource: string,
    limit: number,
    remaining = limit,
  ) {
    this.#limit = limit;
    this.#used = Math.max(0, limit - remaining);
    this.#resetAt = nextReset();
  }

  /** Points per hour. */
  get limit(): number {
    this.#roll();
    return this.#limit;
  }

  /** Points used in the current window. */
  get used(): number {
    this.#roll();
    return this.#used;
  }

  /** Points left in the current window. */
  get remaining(): number {
    return Math.max(0, this.limit - this.used);
  }

  /** When the window resets, in Unix seconds. */
  get resetAt(): number {
    this.#roll();
    return this.#resetAt;
  }

  /** Charges `cost` points when they are left; false (nothing charged) when they are not. */
  take(cost: number): boolean {
    if (this.remaining < cost) return false;
    this.#used += cost;
    return true;
  }

  /** The `x-ratelimit-*` headers GitHub sends for this bucket. */
  headers(): Record<string, string> {
    return {
      'x-ratelimit-limit': String(this.limit),
      'x-ratelimit-remaining': String(this.remaining),
      'x-ratelimit-used': String(this.used),
      'x-ratelimit-reset': String(this.resetAt),
      'x-ratelimit-resource': this.resource,
    };
  }

  /** The bucket as `GET /rate_limit` reports it. */
  toJSON(): { limit: number; used: number; remaining: number; reset: number } {
    return { limit: this.limit, used: this.used, remaining: this.remaining, reset: this.resetAt };
  }

  #roll(): void {
    if (Date.now() / 1000 >= this.#resetAt) {
      this.#used = 0;
      this.#resetAt = nextReset();
    }
  }
}

function nextReset(): number {
  return Math.floor(Date.now() / 1000) + 3600;
}
