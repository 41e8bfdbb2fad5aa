import { describe, expect, it } from 'vitest';
import {
  isValidIsbn,
  isbn10To13,
  libraryQuerySchema,
  listingFormAsUpdate,
  listingFormSchema,
  quickSellSchema,
  quickTradeSchema,
  updateListingSchema,
} from './marketplace';

const messages = (r: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('ISBN', () => {
  it('checks ISBN-10 and ISBN-13 check digits, ignoring hyphens', () => {
    expect(isValidIsbn('88-452-9261-4')).toBe(true);
    expect(isValidIsbn('059035342X')).toBe(true);
    expect(isValidIsbn('978-88-452-9261-3')).toBe(true);
    expect(isValidIsbn('9788845292614')).toBe(false);
    // A valid check digit is not enough: ISBN-13s start 978 or 979 (977 is an ISSN's).
    expect(isValidIsbn('9770000000003')).toBe(false);
    expect(isValidIsbn('8845292615')).toBe(false);
    expect(isValidIsbn('abc')).toBe(false);
    expect(isbn10To13('0590353420')).toBe('9780590353427');
  });
});

describe('listingFormSchema', () => {
  const valid = {
    title: 'T',
    author: 'A',
    genre: 'fiction',
    listingType: 'sell',
    price: 1,
    description: 'D',
  };
  it('applies the defaults', () => {
    expect(listingFormSchema.parse(valid)).toMatchObject({
      condition: 'good',
      currency: 'EUR',
      isNegotiable: false,
    });
  });
  it('carries the validation messages as locale keys, all at once', () => {
    const r = listingFormSchema.safeParse({ listingType: 'both', price: '' });
    expect(messages(r)).toEqual({
      title: 'listings.validation.titleRequired',
      author: 'listings.validation.authorRequired',
      genre: 'listings.validation.genreRequired',
      description: 'listings.validation.descriptionRequired',
      price: 'listings.validation.priceRequired',
    });
    expect(messages(listingFormSchema.safeParse({ ...valid, price: -0.01 }))).toEqual({
      price: 'listings.validation.priceNegative',
    });
    expect(
      listingFormSchema.safeParse({ ...valid, listingType: 'trade', price: null }).success,
    ).toBe(true);
    expect(listingFormSchema.parse({ ...valid, price: '12.50' }).price).toBe(12.5);
  });
});

describe('quick forms', () => {
  it('quick sell needs a price above 0; quick trade title and author', () => {
    expect(messages(quickSellSchema.safeParse({ title: 'T', author: 'A', price: 0 }))).toEqual({
      price: 'listings.validation.pricePositive',
    });
    expect(messages(quickTradeSchema.safeParse({ title: ' ', author: '' }))).toEqual({
      title: 'listings.validation.titleRequired',
      author: 'listings.validation.authorRequired',
    });
  });
});

describe('libraryQuerySchema', () => {
  it('reads query-string text and treats empty values as absent', () => {
    const parsed = libraryQuerySchema.parse({ minPrice: '2.5', page: '3', genre: '', q: '  ' });
    expect(parsed).toMatchObject({ minPrice: 2.5, page: 3 });
    expect(parsed.q).toBeUndefined();
    expect(parsed.genre).toBeUndefined();
  });
  it('refuses bad values', () => {
    expect(
      Object.keys(
        messages(
          libraryQuerySchema.safeParse({ minPrice: '9', maxPrice: '3', pageSize: '61', page: '0' }),
        ),
      ).sort(),
    ).toEqual(['maxPrice', 'page', 'pageSize']);
  });
});

describe('updateListingSchema (PATCH /api/listings/{id})', () => {
  it('takes any one field, fills in no default, and refuses an empty body', () => {
    expect(updateListingSchema.parse({ price: '9.50' })).toEqual({ price: 9.5 });
    expect(updateListingSchema.parse({ isNegotiable: false })).toEqual({ isNegotiable: false });
    expect(updateListingSchema.safeParse({}).success).toBe(false);
    expect(messages(updateListingSchema.safeParse({ title: ' ' }))).toEqual({
      title: 'listings.validation.titleRequired',
    });
  });

  it('reads null or empty text as "clear", absent as "unchanged"', () => {
    expect(updateListingSchema.parse({ language: '', location: null, price: '' })).toEqual({
      language: null,
      location: null,
      price: null,
    });
  });

  it('the whole edit form becomes a body that sends every field, cleared ones as null', () => {
    const form = listingFormSchema.parse({
      title: 'Il barone rampante',
      author: 'Italo Calvino',
      genre: 'fiction',
      listingType: 'trade',
      description: 'Tascabile',
    });
    const body = updateListingSchema.parse(listingFormAsUpdate(form));
    expect(body).toMatchObject({ title: 'Il barone rampante', language: null, price: null });
    expect(Object.keys(body)).toHaveLength(14);
  });
});
