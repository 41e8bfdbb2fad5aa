import { describe, expect, it } from 'vitest';
import { MAX_PRICE } from '@shared/marketplace';
import { priceParams, slidRange, sliderBounds, typedRange } from './priceRange';

describe('sliderBounds', () => {
  it('is 0 to 1000 without prices', () => {
    expect(sliderBounds(undefined)).toEqual([0, 1000]);
    expect(sliderBounds({ min: 0, max: 0 })).toEqual([0, 1000]);
  });
  it('spans the prices found, in whole units', () => {
    expect(sliderBounds({ min: 4.5, max: 29.9 })).toEqual([4, 30]);
  });
  it('is never narrower than one step', () => {
    expect(sliderBounds({ min: 15, max: 15 })).toEqual([15, 16]);
  });
});

describe('typedRange', () => {
  it('takes a typed value, rounded, even beyond the slider span', () => {
    expect(typedRange([15, 16], 0, 9.6)).toEqual([10, 16]);
    expect(typedRange([15, 16], 1, 40)).toEqual([15, 40]);
  });
  it('keeps the handles one step apart by pushing the other one', () => {
    expect(typedRange([15, 16], 0, 16)).toEqual([16, 17]);
    expect(typedRange([15, 20], 1, 3)).toEqual([2, 3]);
  });
  it('stays within 0 and the maximum price', () => {
    expect(typedRange([0, 10], 0, -5)).toEqual([0, 10]);
    expect(typedRange([0, 10], 1, 0)).toEqual([0, 1]);
    expect(typedRange([0, 10], 0, MAX_PRICE + 50)).toEqual([MAX_PRICE - 1, MAX_PRICE]);
  });
});

describe('a bound the member did not set', () => {
  it('stays unset when the other one is typed', () => {
    expect(typedRange([null, null], 1, 15)).toEqual([null, 15]);
    expect(typedRange([null, null], 0, 6)).toEqual([6, null]);
    // Far beyond where the results' other bound is: still nothing set there.
    expect(typedRange([null, null], 0, 80)).toEqual([80, null]);
    // One the member set is pushed, as before.
    expect(typedRange([10, 20], 1, 5)).toEqual([4, 5]);
  });
  it('is unset again when its field is emptied', () => {
    expect(typedRange([6, 15], 0, null)).toEqual([null, 15]);
    expect(typedRange([6, 15], 1, null)).toEqual([6, null]);
  });
  it('is not sent', () => {
    expect(priceParams([null, 15])).toEqual({ minPrice: null, maxPrice: '15' });
    expect(priceParams([0, null])).toEqual({ minPrice: '0', maxPrice: null });
  });
});

describe('slidRange', () => {
  it('changes only the handle the member moved', () => {
    expect(slidRange([null, null], [6, 50], [6, 20], [6, 50])).toEqual([null, 20]);
    expect(slidRange([8, null], [8, 50], [12, 50], [6, 50])).toEqual([12, null]);
  });
  it('sets no bound for a handle moved to its end of the span', () => {
    expect(slidRange([10, 20], [10, 20], [6, 20], [6, 50])).toEqual([null, 20]);
    expect(slidRange([10, 20], [10, 20], [10, 50], [6, 50])).toEqual([10, null]);
  });
});
