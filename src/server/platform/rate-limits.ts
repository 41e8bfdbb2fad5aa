import { AppError } from './errors';

/**
 * Counters for limits the HTTP layer cannot key by itself: attempts per account (an e-mail
 * address, a member) whatever address they come from. @fastify/rate-limit keeps limiting per
 * client address; these limit per target, so a botnet guessing one member's password, or
 * flooding one inbox with sign-up mails, meets the same budget from every address.
 */

/** Where counts live. Each process keeps its own today; a shared store makes the limits global. */
export interface CounterStore {
  /** Adds `by` to the key's count in its window (a new window opens when none is running). */
  add(key: string, by: number, windowMs: number, now: number): Promise<Window>;
  /** The key's running window, if any. */
  get(key: string, now: number): Promise<Window | undefined>;
  delete(key: string): Promise<void>;
}

export interface Window {
  count: number;
  /** When the window ends, in epoch milliseconds. */
  resetAt: number;
}

/**
 * Counts in this process's memory. With several processes (WEB_CONCURRENCY) each counts on its
 * own, so the real budget is the limit times the number of processes.
 */
export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, Window>();
  private nextSweep = 0;

  constructor(private readonly maxKeys = 100_000) {}

  async add(key: string, by: number, windowMs: number, now: number): Promise<Window> {
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += by;
    return { ...window };
  }

  async get(key: string, now: number): Promise<Window | undefined> {
    const window = this.windows.get(key);
    return window && window.resetAt > now ? { ...window } : undefined;
  }

  async delete(key: string): Promise<void> {
    this.windows.delete(key);
  }

  /** Drops ended windows now and then, and the oldest ones if an attacker floods us with keys. */
  private sweep(now: number): void {
    if (now < this.nextSweep && this.windows.size < this.maxKeys) return;
    this.nextSweep = now + 60_000;
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}

/** 429 in our format, with the seconds to wait (the error handler also sends Retry-After). */
/**
 * Token buckets in this process's memory, one per key (a member): `burst` tokens at most, refilled
 * at `perSecond`. For budgets spent so often that a shared store would cost more than the work it
 * limits (a socket's frames, its chat sends: docs/decisions/0077): each process counts on its own,
 * so with several processes a member's budget is the limit times the processes they are on.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly opts: { perSecond: number; burst: number; maxKeys?: number }) {}

  /** The key's tokens now (refilled up to the burst), without taking one. */
  tokens(key: string, now: number): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return this.opts.burst;
    const refill = (Math.max(0, now - bucket.at) / 1000) * this.opts.perSecond;
    return Math.min(this.opts.burst, bucket.tokens + refill);
  }

  /** Takes one token: 0 when taken, otherwise the seconds until one is there (nothing taken). */
  take(key: string, now: number): number {
    const tokens = this.tokens(key, now);
    if (tokens < 1) return (1 - tokens) / this.opts.perSecond;
    if (!this.buckets.has(key) && this.buckets.size >= (this.opts.maxKeys ?? 100_000))
      this.sweep(now);
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    return 0;
  }

  /** Forgets full buckets (a full bucket and a forgotten one are the same), unless `keep`. */
  sweep(now: number, keep: (key: string) => boolean = () => false): void {
    for (const key of this.buckets.keys())
      if (!keep(key) && this.tokens(key, now) >= this.opts.burst) this.buckets.delete(key);
  }

  get size(): number {
    return this.buckets.size;
  }
}

export const rateLimited = (seconds: number) =>
  new AppError(429, 'rate_limited', 'errors.rateLimited', undefined, {
    seconds: Math.max(1, Math.ceil(seconds)),
  });

export interface RateLimiter {
  /** Counts one attempt for the key; 429 when this one is over the budget. */
  consume(key: string): Promise<void>;
  /** 429 when the key has already used its budget; counts nothing. */
  check(key: string): Promise<void>;
  /** Counts one attempt without refusing it (a failure found after the work was done). */
  record(key: string): Promise<void>;
  /** Forgets the key's attempts (the owner proved who they are). */
  reset(key: string): Promise<void>;
}

export interface RateLimiterOptions {
  /** Tells this limiter's keys apart from others' in a shared store. */
  name: string;
  max: number;
  windowMs: number;
  store: CounterStore;
  now?: () => number;
}

/** Keys are compared in lower case and trimmed: "Anna@Example.com " is anna@example.com. */
export const normaliseKey = (key: string) => key.trim().toLowerCase();

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { name, max, windowMs, store } = options;
  const now = options.now ?? Date.now;
  const keyOf = (key: string) => `${name}:${normaliseKey(key)}`;
  const refuse = (window: Window, at: number) => rateLimited((window.resetAt - at) / 1000);
  return {
    async consume(key) {
      const at = now();
      const window = await store.add(keyOf(key), 1, windowMs, at);
      if (window.count > max) throw refuse(window, at);
    },
    async check(key) {
      const at = now();
      const window = await store.get(keyOf(key), at);
      if (window && window.count >= max) throw refuse(window, at);
    },
    async record(key) {
      await store.add(keyOf(key), 1, windowMs, now());
    },
    async reset(key) {
      await store.delete(keyOf(key));
    },
  };
}
