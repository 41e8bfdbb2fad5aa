import { expect } from 'vitest';
import type { TestApp } from './app';
import { requester, type Member } from './members';

/** A complete sell-form listing (POST /api/listings) for suites that need a real book on sale. */
export const gattopardo = {
  mode: 'full',
  title: 'Il Gattopardo',
  author: 'Giuseppe Tomasi di Lampedusa',
  genre: 'fiction',
  condition: 'likeNew',
  listingType: 'sell',
  price: 12.5,
  currency: 'EUR',
  description: 'Prima edizione Feltrinelli, ottime condizioni.',
  isbn: '978-88-07-88108-4',
  location: 'Palermo',
  shippingCost: 4.9,
};

/** A book for sale, as the sell form sends it (POST /api/listings). */
export const saleListing = {
  mode: 'full',
  title: 'Il barone rampante',
  author: 'Italo Calvino',
  genre: 'fiction',
  condition: 'good',
  listingType: 'sell',
  price: 20,
  currency: 'EUR',
  description: 'Edizione Einaudi, come nuovo.',
};

/** `who` lists saleListing with `overrides`; the new listing's id and title. */
export async function createListing(t: TestApp, who: Member, overrides: object = {}) {
  const res = await requester(t)('POST', '/api/listings', who, { ...saleListing, ...overrides });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; title: string };
}
