import { describe, expect, it } from 'vitest';
import { TokenBuckets } from './rate-limits';

describe('TokenBuckets (a budget per key in memory)', () => {
  it('spends the burst, then refuses with the wait until the next token, refilled at the rate', () => {
    const buckets = new TokenBuckets({ perSecond: 2, burst: 3 });
    const t0 = 1_000_000;
    expect([0, 1, 2].map(() => buckets.take('ada', t0))).toEqual([0, 0, 0]);
    // Empty: half a second until the next token at 2 a second; nothing is taken meanwhile.
    expect(buckets.take('ada', t0)).toBeCloseTo(0.5);
    expect(buckets.take('ada', t0 + 250)).toBeCloseTo(0.25);
    expect(buckets.take('ada', t0 + 500)).toBe(0);
    expect(buckets.take('ada', t0 + 500)).toBeGreaterThan(0);
    // Another key has its own budget.
    expect(buckets.take('bea', t0 + 500)).toBe(0);
    // A long pause refills up to the burst, never past it.
    expect(buckets.tokens('ada', t0 + 60_000)).toBe(3);
  });

  it('forgets full buckets only (a full bucket and a forgotten one are the same)', () => {
    const buckets = new TokenBuckets({ perSecond: 1, burst: 2 });
    buckets.take('ada', 0);
    buckets.take('bea', 0);
    buckets.take('bea', 0);
    buckets.sweep(1000);
    expect(buckets.size).toBe(1);
    expect(buckets.tokens('bea', 1000)).toBe(1);
    buckets.sweep(5000, (key) => key === 'bea');
    expect(buckets.size).toBe(1);
    buckets.sweep(5000);
    expect(buckets.size).toBe(0);
  });
});
