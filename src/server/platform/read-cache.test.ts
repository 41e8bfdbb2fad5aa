import { describe, expect, it } from 'vitest';
import { PublicReadCache } from './read-cache';

describe('PublicReadCache', () => {
  it('computes a key once while fresh, serves it stale once more while one recomputation runs', async () => {
    let clock = 0;
    const cache = new PublicReadCache(2_000, () => clock);
    let computed = 0;
    const load = async () => `answer ${++computed}`;
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect([a, b, computed]).toEqual(['answer 1', 'answer 1', 1]);
    clock = 1_999;
    expect(await cache.get('k', load)).toBe('answer 1');
    clock = 2_500;
    const stale = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect([...stale, computed]).toEqual(['answer 1', 'answer 1', 2]);
    expect(await cache.get('k', load)).toBe('answer 2');
    clock = 10_000;
    expect(await cache.get('k', load)).toBe('answer 3');
  });

  it('forgets everything on clear, including computations under way, and never keeps failures', async () => {
    const cache = new PublicReadCache(2_000, () => 0);
    let release: (v: string) => void = () => {};
    const slow = cache.get('k', () => new Promise<string>((r) => (release = r)));
    cache.clear();
    release('before the write');
    expect(await slow).toBe('before the write');
    expect(await cache.get('k', async () => 'after the write')).toBe('after the write');

    await expect(cache.get('e', async () => Promise.reject(new Error('down')))).rejects.toThrow();
    expect(await cache.get('e', async () => 'up')).toBe('up');
    const off = new PublicReadCache(0);
    let n = 0;
    await off.get('k', async () => String(++n));
    expect(await off.get('k', async () => String(++n))).toBe('2');
  });
});
