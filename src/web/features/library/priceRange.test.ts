import { describe, expect, it } from 'vitest';
import { MAX_PRICE } from '@shared/marketplace';
import { sliderBounds, typedRange } from './priceRange';

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
