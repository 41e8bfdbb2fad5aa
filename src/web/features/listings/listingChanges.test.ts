import { describe, expect, it } from 'vitest';
import {
  listingChanges,
  listingEditWithoutDescriptionSchema,
  listingFormSchema,
  updateListingSchema,
  type ListingDetail,
} from '@shared/marketplace';
import { valuesFromListing } from './formValues';

/** A quick sale as the server answers it: no description, defaults for the rest. */
const quickSale: ListingDetail = {
  id: '5c0c2d5e-1f0a-4b7e-9d7e-2f8f1b7f0a01',
  title: 'Il barone rampante',
  author: 'Italo Calvino',
  coverUrl: '/api/covers/5c0c2d5e-1f0a-4b7e-9d7e-2f8f1b7f0a02',
  genre: 'fiction',
  workId: null,
  condition: 'good',
  listingType: 'sell',
  price: 10,
  currency: 'EUR',
  status: 'available',
  isActive: true,
  description: null,
  language: 'Italiano',
  createdAt: '2026-12-01T10:00:00.000Z',
  bookId: '5c0c2d5e-1f0a-4b7e-9d7e-2f8f1b7f0a02',
  seller: { id: 's', displayName: 'Sara', username: 'sara', avatarUrl: null, memberSince: '' },
  isbn: '9788804668015',
  location: null,
  shippingCost: null,
  isNegotiable: false,
  images: [],
  updatedAt: '2026-12-01T10:00:00.000Z',
  book: { synopsis: null, publisher: null, year: null, isbn: null },
};

/** The edit form's values for a listing, with the member's `edits`. */
const formOf = (l: ListingDetail, edits: Record<string, unknown> = {}) => ({
  ...valuesFromListing(l),
  ...edits,
});

describe('editing a listing', () => {
  it('a quick listing without a description passes its edit form; the full form still asks', () => {
    expect(listingEditWithoutDescriptionSchema.safeParse(formOf(quickSale)).success).toBe(true);
    const full = listingFormSchema.safeParse(formOf(quickSale));
    expect(full.success).toBe(false);
  });

  it('sends only what changed: a new price alone, never the empty description', () => {
    const form = listingEditWithoutDescriptionSchema.parse(formOf(quickSale, { price: '8.5' }));
    const body = listingChanges(form, quickSale);
    expect(body).toEqual({ price: 8.5 });
    expect(updateListingSchema.parse(body)).toEqual({ price: 8.5 });
  });

  it('sends nothing when nothing changed, and a cleared field as null', () => {
    const same = listingEditWithoutDescriptionSchema.parse(formOf(quickSale));
    expect(listingChanges(same, quickSale)).toEqual({});
    const placed = { ...quickSale, location: 'Torino', description: 'Tascabile' };
    const cleared = listingFormSchema.parse(formOf(placed, { location: '', isNegotiable: true }));
    expect(listingChanges(cleared, placed)).toEqual({ location: null, isNegotiable: true });
  });
});
