import { beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { grantAdmin } from '../moderation';
import { createListing } from '../../test/listings';
import { requester, createMember, type Member } from '../../test/members';
import { LISTING_STATUSES } from '@shared/marketplace';

/**
 * A book in an open deal is locked (issue 32): no listing route changes it (status, complete,
 * edit, delete, accepting another offer); the deal's own steps are the only way. Once the deal
 * ended, the routes work again, and the deal keeps its books as agreed even after the listing is
 * deleted. A is the seller, B the buyer, D another member (a second account of A's).
 */
export let t: TestApp;
export let req: ReturnType<typeof requester>;
export let a: Member;
export let b: Member;
export let d: Member;
export let admin: Member;

export const LOCKED = {
  status: 409,
  en: "This book is in an open deal: it changes through the deal's steps.",
  it: 'Questo libro è in una trattativa aperta: cambia solo con i passaggi della trattativa.',
};

export const address = {
  name: 'Bea Buyer',
  street: 'Via Roma 1',
  postalCode: '10100',
  city: 'Torino',
  country: 'IT',
};

/** Registers the file's app and members (each test file builds its own). */
export function setUpWorld() {
  beforeAll(async () => {
    t = await createTestApp();
    req = requester(t);
    [a, b, d, admin] = await Promise.all([
      createMember(t, { username: 'anna_sells', displayName: 'Anna Sells' }),
      createMember(t, { username: 'bea_buys', displayName: 'Bea Buys' }),
      createMember(t, { username: 'dario_second', displayName: 'Dario Second' }),
      createMember(t, { displayName: 'Ada Admin' }),
    ]);
    expect((await grantAdmin(t.database, admin.email)).ok).toBe(true);
  }, 120_000);
}

/** A deal and its books, each with the member it belongs to. */
export interface Case {
  dealId: string;
  roomId: string;
  books: { id: string; owner: Member }[];
}

export const step = (c: Case, path: string, who: Member, body?: unknown) =>
  req('POST', `/api/deals/${c.dealId}/${path}`, who, body);

export async function ok(res: Awaited<ReturnType<typeof req>>, status = 200) {
  expect(res.statusCode, res.body).toBe(status);
  return res;
}

export async function contact(buyer: Member, listingId: string) {
  const res = await ok(
    await req('POST', '/api/chats/contact', buyer, { listingId, content: 'Ciao' }),
    201,
  );
  return res.json().roomId as string;
}

export async function accept(offerId: string, who = a) {
  const res = await ok(await req('POST', `/api/chats/offers/${offerId}/accept`, who));
  return res.json().message.offer.dealId as string;
}

/** A sale of one book of A's to B, by post (`shippingCost`) or by hand. */
export async function sale(title: string, shippingCost?: number): Promise<Case> {
  const listing = await createListing(t, a, {
    title,
    price: 12,
    ...(shippingCost ? { shippingCost } : {}),
  });
  const roomId = await contact(b, listing.id);
  const offer = await ok(
    await req('POST', `/api/chats/rooms/${roomId}/offers`, b, {
      listingId: listing.id,
      amount: 10,
    }),
    201,
  );
  const dealId = await accept(offer.json().message.offer.id);
  return { dealId, roomId, books: [{ id: listing.id, owner: a }] };
}

export const postOpen = () => sale('First edition, signed', 4);
export async function postShipped() {
  const c = await sale('Shipped, signed', 4);
  await ok(await step(c, 'address', b, { address }));
  await ok(await step(c, 'ship', a, { carrier: 'sda', tracking: 'SDA123' }));
  return c;
}
export async function postCase() {
  const c = await postShipped();
  await ok(await step(c, 'problem', b, { reason: 'not_arrived', message: 'Mai arrivato' }));
  return c;
}
export const handOpen = () => sale('Handed over');
export async function handConfirmedOnce() {
  const c = await sale('Handed over, confirmed once');
  await ok(await step(c, 'meeting/confirm', b));
  return c;
}
/** A bundle of 10 € + 15 € at 28 € with shipping. */
export async function bundle(): Promise<Case> {
  const one = await createListing(t, a, { title: 'Bundle one', price: 10, shippingCost: 3 });
  const two = await createListing(t, a, { title: 'Bundle two', price: 15, shippingCost: 4 });
  const res = await ok(
    await req('POST', '/api/chats/bundles', b, { listingIds: [one.id, two.id], amount: 28 }),
    201,
  );
  const { roomId, message } = res.json();
  const dealId = await accept(message.offer.id);
  return {
    dealId,
    roomId,
    books: [
      { id: one.id, owner: a },
      { id: two.id, owner: a },
    ],
  };
}
/** A trade: B offers a book of theirs for A's; both sides' books are in the deal. */
export async function trade(): Promise<Case> {
  const wanted = await createListing(t, a, {
    title: 'Wanted for trade',
    listingType: 'trade',
    price: undefined,
  });
  const given = await createListing(t, b, {
    title: 'Offered in trade',
    listingType: 'trade',
    price: undefined,
  });
  const roomId = await contact(b, wanted.id);
  const offer = await ok(
    await req('POST', `/api/chats/rooms/${roomId}/trade-offers`, b, {
      listingId: wanted.id,
      offeredListingIds: [given.id],
    }),
    201,
  );
  const dealId = await accept(offer.json().message.offer.id);
  return {
    dealId,
    roomId,
    books: [
      { id: wanted.id, owner: a },
      { id: given.id, owner: b },
    ],
  };
}

export const readDeal = async (c: Case, who: Member = b) =>
  (await ok(await req('GET', `/api/deals/${c.dealId}`, who))).json().deal;

export const listingRow = async (id: string) =>
  (
    await t.database.query(
      `select status, title, author, condition, description, price::float8 as price,
         shipping_cost::float8 as shipping_cost from book_listings where id = $1`,
      [id],
    )
  )[0];

/** Every listing route on every book of the deal, by the book's owner. */
export async function walkListingRoutes(c: Case, expected: number) {
  const answers: { route: string; status: number; body: string }[] = [];
  const note = (route: string, res: Awaited<ReturnType<typeof req>>) =>
    answers.push({ route, status: res.statusCode, body: res.body });
  for (const { id, owner } of c.books) {
    for (const status of LISTING_STATUSES)
      note(`status ${status}`, await req('POST', `/api/listings/${id}/status`, owner, { status }));
    note(
      'complete',
      await req('POST', `/api/listings/${id}/complete`, owner, {
        kind: 'sale',
        counterpartUsername: d.username,
      }),
    );
    for (const patch of [
      { title: 'Paperback reprint' },
      { price: 99 },
      { condition: 'poor' },
      { description: 'Not what was agreed' },
    ])
      note(
        `patch ${Object.keys(patch)[0]}`,
        await req('PATCH', `/api/listings/${id}`, owner, patch),
      );
    note('delete', await req('DELETE', `/api/listings/${id}`, owner));
  }
  expect(
    answers.filter((x) => x.status !== expected),
    'every listing route answers the same',
  ).toEqual([]);
  return answers;
}

export const OPEN_STATES: [string, () => Promise<Case>][] = [
  ['post, open before shipping', postOpen],
  ['post, shipped', postShipped],
  ['post, with an open problem case', postCase],
  ['hand to hand, before any confirmation', handOpen],
  ['hand to hand, after one confirmation', handConfirmedOnce],
  ['a bundle', bundle],
  ['a trade (both sides’ books)', trade],
];
