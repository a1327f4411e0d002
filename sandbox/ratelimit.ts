/** A per-key token bucket: `quota` tokens refilled evenly over `windowSeconds`. */
export interface RateDecision {
  allowed: boolean;
  remaining: number;
  /** Seconds until the bucket is full again (the `t` of the RateLimit header). */
  resetSeconds: number;
  /** Seconds until one token is available; 0 when allowed. */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly quota: number,
    readonly windowSeconds: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  private refill(id: string): Bucket {
    const now = this.now();
    const perMs = this.quota / (this.windowSeconds * 1000);
    const bucket = this.buckets.get(id) ?? { tokens: this.quota, updatedAt: now };
    bucket.tokens = Math.min(this.quota, bucket.tokens + (now - bucket.updatedAt) * perMs);
    bucket.updatedAt = now;
    this.buckets.set(id, bucket);
    return bucket;
  }

  consume(id: string): RateDecision {
    const bucket = this.refill(id);
    const perSecond = this.quota / this.windowSeconds;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    return {
      allowed,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((this.quota - bucket.tokens) / perSecond),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)),
    };
  }

  clear(): void {
    this.buckets.clear();
  }
}
