import { describe, expect, it } from 'vitest';
import {
  t,
  seller,
  secretive,
  listing,
  PUBLIC_URL,
  gattopardo,
  create,
  get,
  jsonLd,
  meta,
  titleOf,
  useFixture,
} from './routes.fixture';

useFixture();

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
const workOf = async (id: string) =>
  (
    await t.database.query<{ work_id: string }>('select work_id from book_listings where id = $1', [
      id,
    ])
  )[0].work_id;

describe('a work in the sitemap and its page head', () => {
  it('lists the works with an available copy, and drops one with none', async () => {
    const work = await workOf(listing.id);
    const url = `${PUBLIC_URL}/books/${work}`;
    expect(locs((await get('/sitemaps/works-1.xml')).body)).toContain(url);
    const lone = await create(seller, { ...gattopardo, title: 'Una copia sola', isbn: undefined });
    const loneUrl = `${PUBLIC_URL}/books/${await workOf(lone.id)}`;
    expect(locs((await get('/sitemaps/works-1.xml')).body)).toContain(loneUrl);
    await t.inject({
      method: 'POST',
      url: `/api/listings/${lone.id}/status`,
      headers: { cookie: seller.cookie },
      payload: { status: 'sold' },
    });
    expect(locs((await get('/sitemaps/works-1.xml')).body)).not.toContain(loneUrl);
  });

  it('describes a work as a Book with an offer per copy, a private seller unnamed', async () => {
    const work = await workOf(listing.id);
    // A second copy, from a member whose profile is private, cheaper with its shipping.
    await create(secretive, { ...gattopardo, price: 6, shippingCost: 1.5 });
    const res = await get(`/books/${work}`, 'en');
    expect(res.statusCode).toBe(200);
    expect(titleOf(res.body)).toBe('Library - Il Gattopardo | Scaffale');
    expect(meta(res.body, 'description')).toBe(
      'Il Gattopardo by Giuseppe Tomasi di Lampedusa: 2 copies from €7.50, in every edition and language.',
    );
    const ld = jsonLd(res.body);
    expect(ld).toMatchObject({
      '@type': 'Book',
      name: 'Il Gattopardo',
      author: { '@type': 'Person', name: 'Giuseppe Tomasi di Lampedusa' },
      url: `${PUBLIC_URL}/books/${work}`,
      offers: {
        '@type': 'AggregateOffer',
        offerCount: 2,
        lowPrice: '6.00',
        highPrice: '12.50',
        priceCurrency: 'EUR',
      },
    });
    const [cheap, dear] = ld.offers.offers;
    expect(cheap).toMatchObject({
      price: '6.00',
      itemCondition: 'https://schema.org/UsedCondition',
    });
    expect(cheap.seller).toBeUndefined();
    expect(dear).toMatchObject({
      url: `${PUBLIC_URL}/library/book/${listing.id}`,
      price: '12.50',
      seller: { '@type': 'Person', name: 'Sara Seller' },
    });
    expect(res.body).not.toContain('Hidden Harriet');
  });

  it('answers 404 for a work that does not exist', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope'])
      expect((await get(`/books/${id}`)).statusCode, id).toBe(404);
  });
});
