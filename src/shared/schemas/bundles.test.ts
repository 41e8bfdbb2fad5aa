import { describe, expect, it } from 'vitest';
import { bundleHandOnly, bundleOfferSchema, bundleShipping } from './bundles';

describe('a bundle’s one shipping cost', () => {
  it('is the highest single cost by default', () => {
    expect(bundleShipping({ shippingAmount: null }, [3, 5.5, 4])).toBe(5.5);
  });
  it('is the seller’s bundle price when they set one, even 0', () => {
    expect(bundleShipping({ shippingAmount: 6 }, [3, 9])).toBe(6);
    expect(bundleShipping({ shippingAmount: 0 }, [3, 9])).toBe(0);
  });
  it('is the seller’s bundle price even when a book alone is handed over only: their promise', () => {
    expect(bundleShipping({ shippingAmount: 5 }, [3, null])).toBe(5);
    expect(bundleShipping({ shippingAmount: 5 }, [null, null])).toBe(5);
    expect(bundleHandOnly({ shippingAmount: 5 }, [{ shippingCost: null }])).toEqual([]);
  });
  it('is none by the highest cost when a book does not ship, naming it; none with no books', () => {
    expect(bundleShipping({ shippingAmount: null }, [3, null])).toBeNull();
    const books = [
      { title: 'A', shippingCost: 3 },
      { title: 'B', shippingCost: null },
    ];
    expect(bundleHandOnly({ shippingAmount: null }, books)).toEqual([books[1]]);
    expect(bundleShipping({ shippingAmount: null }, [])).toBeNull();
    expect(bundleShipping({ shippingAmount: 5 }, [])).toBeNull();
  });
});

describe('a bundle offer’s input', () => {
  const id = '00000000-0000-4000-8000-000000000001';
  it('holds 2 to 20 books and a positive amount in cents', () => {
    expect(bundleOfferSchema.safeParse({ listingIds: [id, id], amount: 9.5 }).success).toBe(true);
    expect(bundleOfferSchema.safeParse({ listingIds: [id], amount: 9 }).success).toBe(false);
    expect(bundleOfferSchema.safeParse({ listingIds: Array(21).fill(id), amount: 9 }).success).toBe(
      false,
    );
    expect(bundleOfferSchema.safeParse({ listingIds: [id, id], amount: 9.999 }).success).toBe(
      false,
    );
    expect(bundleOfferSchema.safeParse({ listingIds: [id, id], amount: 1e12 }).success).toBe(false);
  });
});
