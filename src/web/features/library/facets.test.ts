import { describe, expect, it } from 'vitest';
import { SEARCH_COUNT_CAP } from '@shared/marketplaceConstants';
import { bandRange, isCapped } from './facets';

describe('the facets as filters', () => {
  it('turns a price band [min, max) into the inclusive price filter of priced listings', () => {
    expect(bandRange({ min: 0, max: 5 })).toEqual([0.01, 4.99]);
    expect(bandRange({ min: 20, max: 50 })).toEqual([20, 49.99]);
    expect(bandRange({ min: 50, max: null })).toEqual([50, null]);
  });

  it('reads the counts of a capped answer as lower bounds, none of an exact one', () => {
    expect(isCapped(SEARCH_COUNT_CAP, true)).toBe(true);
    expect(isCapped(12, true)).toBe(true);
    expect(isCapped(0, true)).toBe(false);
    expect(isCapped(SEARCH_COUNT_CAP, false)).toBe(false);
    expect(isCapped(12, undefined)).toBe(false);
  });
});
