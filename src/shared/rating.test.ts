import { describe, expect, it } from 'vitest';
import { isNewMember, memberRating } from './rating';

describe('memberRating (the rating rule)', () => {
  it('a member nobody has reviewed is a new member: no figure, never 5.0', () => {
    const rating = memberRating({ count: 0, average: null });
    expect(rating).toEqual({ average: null, reviewCount: 0 });
    expect(isNewMember(rating)).toBe(true);
  });

  it('is the mean of the reviews, one decimal, with their count', () => {
    expect(memberRating({ count: 3, average: 4.333333 })).toEqual({ average: 4.3, reviewCount: 3 });
    expect(memberRating({ count: 1, average: 5 })).toEqual({ average: 5, reviewCount: 1 });
    // PostgreSQL's numeric arrives as text from some drivers.
    expect(memberRating({ count: 2, average: '3.5' })).toEqual({ average: 3.5, reviewCount: 2 });
    expect(isNewMember(memberRating({ count: 1, average: 1 }))).toBe(false);
  });

  it('never invents a figure from bad input', () => {
    expect(memberRating({ count: 0, average: 4.8 })).toEqual({ average: null, reviewCount: 0 });
    expect(memberRating({ count: 4, average: null })).toEqual({ average: null, reviewCount: 0 });
    expect(memberRating({ count: Number.NaN, average: 4 })).toEqual({
      average: null,
      reviewCount: 0,
    });
    expect(memberRating({ count: undefined, average: undefined }).average).toBeNull();
    expect(memberRating({ count: 2, average: 'x' }).average).toBeNull();
    expect(memberRating({ count: 2, average: 9 }).average).toBe(5);
    expect(memberRating({ count: 2, average: 0.2 }).average).toBe(1);
  });
});
