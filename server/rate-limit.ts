// Token buckets kept in memory: each key may spend `capacity` requests at once and
// earns `perSecond` back. Nothing identifies a person: keys are class ids, the
// random ids students get on joining, or the connection a request came on (never an
// IP address). Buckets that are full again are forgotten, so the map stays small.

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimit {
  readonly #buckets = new Map<unknown, Bucket>();

  constructor(
    readonly capacity: number,
    readonly perSecond: number,
  ) {}

  /** Takes one token for `key`: 0 when allowed, else the seconds to wait before trying again. */
  take(key: unknown, now = Date.now()): number {
    const bucket = this.#buckets.get(key) ?? { tokens: this.capacity, at: now };
    bucket.tokens = Math.min(this.capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    if (bucket.tokens < 1) {
      this.#buckets.set(key, bucket);
      return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
    }
    bucket.tokens -= 1;
    this.#buckets.set(key, bucket);
    if (this.#buckets.size > 10_000) this.#forgetFull(now);
    return 0;
  }

  /** Drops a key's bucket (a connection that closed). */
  forget(key: unknown): void {
    this.#buckets.delete(key);
  }

  #forgetFull(now: number): void {
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond >= this.capacity) this.#buckets.delete(key);
    }
  }
}
