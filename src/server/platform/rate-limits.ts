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
