import type { ListingDetail } from '@shared/marketplace';

/** The listing form's values: empty for a new listing, or filled from one being edited. */
export interface ListingFormValues {
  title: string;
  author: string;
  genre: string;
  condition: string;
  listingType: string;
  price: number | string;
  currency: string;
  description: string;
  isbn: string;
  language: string;
  location: string;
  shippingCost: number | string;
  isNegotiable: boolean;
  coverUrl: string;
}

export const EMPTY: ListingFormValues = {
  title: '',
  author: '',
  genre: '',
  condition: 'good',
  listingType: 'sell',
  price: '',
  currency: 'EUR',
  description: '',
  isbn: '',
  language: '',
  location: '',
  shippingCost: '',
  isNegotiable: false,
  coverUrl: '',
};

/** Only our own uploads can be sent back as coverUrl; proxied remote covers stay as they are. */
const isOwnUpload = (url: string | null) => !!url && url.startsWith('/uploads/');

export function valuesFromListing(l: ListingDetail): ListingFormValues {
  return {
    title: l.title,
    author: l.author,
    genre: l.genre,
    condition: l.condition,
    listingType: l.listingType,
    price: l.price ?? '',
    currency: l.currency,
    description: l.description ?? '',
    isbn: l.isbn ?? '',
    language: l.language ?? '',
    location: l.location ?? '',
    shippingCost: l.shippingCost ?? '',
    isNegotiable: l.isNegotiable,
    coverUrl: isOwnUpload(l.coverUrl) ? l.coverUrl! : '',
  };
}
