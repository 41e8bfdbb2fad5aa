import { describe, expect, it } from 'vitest';
import { formatPercent, joinList } from './lists';

describe('list fields', () => {
  it('joins for editing', () => {
    expect(joinList(['a', 'b'])).toBe('a, b');
    expect(joinList(undefined)).toBe('');
  });
});

describe('formatPercent', () => {
  it('always has two decimals, in the interface language', () => {
    expect(formatPercent(100, 'en')).toBe('100.00%');
    expect(formatPercent(33.33, 'en')).toBe('33.33%');
    expect(formatPercent(0, 'en')).toBe('0.00%');
    expect(formatPercent(12.5, 'it')).toBe('12,50%');
  });
});
