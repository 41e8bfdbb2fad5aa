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
