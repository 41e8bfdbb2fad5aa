import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app';
import { mustOpen, wait, type TestSocket } from '../../platform/realtime/testing';
import { bothConfirm } from '../../test/deals';
import { createListing } from '../../test/listings';
import { createMember, type Member } from '../../test/members';
import { grantAdmin } from '../moderation';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../test/harness';

/**
 * chat.listing over real sockets: the card of a listing in a conversation follows its status
 * (sold, reserved, available again, deleted) whatever path changed it, and only the members of
 * the conversations about it hear of it.
 */
let t: TestApp, req: Requester;
let seller: Member, buyer: Member, stranger: Member;
let base: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  ({ t, req, seller, buyer, stranger } = await appWithMembers({
    seller: { displayName: 'Sara Seller' },
    buyer: { displayName: 'Bruno Buyer' },
    stranger: { displayName: 'Stella Stranger' },
  }));
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, SIGN_UP_TIMEOUT);

afterAll(async () => {
  for (const s of sockets) s.ws.close();
  await Promise.all(sockets.map((s) => s.closed));
});

async function tab(member: Member) {
  const socket = await mustOpen(base, { cookie: member.cookie, origin: t.config.publicUrl });
  sockets.push(socket);
  return socket;
}

const aboutListing = (listingId: string) => (f: Record<string, unknown>) =>
  f.type === 'chat.listing' && f.listingId === listingId;

async function conversation(title: string) {
  const listing = await createListing(t, seller, { title });
  const contact = await req('POST', '/api/chats/contact', buyer, {
    listingId: listing.id,
    content: 'È ancora disponibile?',
  });
  expect(contact.statusCode, contact.body).toBe(201);
  return { listingId: listing.id, roomId: contact.json().roomId as string };
}

/** The status on the card of `listingId` in the room, as `who` reads the conversation. */
const cardStatus = async (who: Member, roomId: string, listingId: string) =>
  (
    (await req('GET', `/api/chats/rooms/${roomId}/messages`, who)).json().items as {
      listing?: { id: string; status: string };
    }[]
  ).find((m) => m.listing?.id === listingId)?.listing?.status;

describe('the listing card in a conversation', () => {
  it('turns sold live on the buyer’s socket; a member not in the room hears nothing', async () => {
    const { listingId, roomId } = await conversation('Il sentiero dei nidi di ragno');
    const buyerTab = await tab(buyer);
    const strangerTab = await tab(stranger);

    const res = await req('POST', `/api/listings/${listingId}/status`, seller, { status: 'sold' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await buyerTab.next(aboutListing(listingId))).toEqual({
      type: 'chat.listing',
      listingId,
      status: 'sold',
    });
    expect(await cardStatus(buyer, roomId, listingId)).toBe('sold');
    await wait(300);
    expect(strangerTab.frames.filter((f) => f.type === 'chat.listing')).toEqual([]);
  });

  it('follows an accepted offer (reserved), its deal cancelled (available), then a deletion (null)', async () => {
    const { listingId, roomId } = await conversation('Le città invisibili');
    const buyerTab = await tab(buyer);
    const offer = await req('POST', `/api/chats/rooms/${roomId}/offers`, buyer, {
      listingId,
      amount: 7.5,
    });
    expect(offer.statusCode, offer.body).toBe(201);
    const offerId = offer.json().message.offer.id;
    const accepted = await req('POST', `/api/chats/offers/${offerId}/accept`, seller);
    expect(accepted.statusCode).toBe(200);
    expect(await buyerTab.next(aboutListing(listingId))).toMatchObject({ status: 'reserved' });

    // A book in an open deal goes back on sale through the deal (issue 32): its cancellation.
    const dealId = accepted.json().message.offer.dealId as string;
    expect((await req('POST', `/api/deals/${dealId}/cancel`, seller)).statusCode).toBe(200);
    expect(await buyerTab.next(aboutListing(listingId))).toMatchObject({ status: 'available' });

    expect((await req('DELETE', `/api/listings/${listingId}`, seller)).statusCode).toBe(204);
    expect(await buyerTab.next(aboutListing(listingId))).toMatchObject({ status: null });
  });

  it('turns sold when both confirm the exchange of the accepted offer', async () => {
    const { listingId, roomId } = await conversation('Marcovaldo');
    const offer = await req('POST', `/api/chats/rooms/${roomId}/offers`, buyer, {
      listingId,
      amount: 9,
    });
    const offerId = offer.json().message.offer.id;
    const accepted = await req('POST', `/api/chats/offers/${offerId}/accept`, seller);
    expect(accepted.statusCode).toBe(200);
    const buyerTab = await tab(buyer);
    await bothConfirm(t, seller, buyer, accepted.json().message.offer.dealId);
    expect(await buyerTab.next(aboutListing(listingId))).toMatchObject({ status: 'sold' });
  });

  it('turns unavailable when a moderator hides the listing, and back when restored', async () => {
    const admin = await createMember(t, { displayName: 'Ada Admin' });
    expect((await grantAdmin(t.database, admin.email)).ok).toBe(true);
    const { listingId, roomId } = await conversation('Il castello dei destini incrociati');
    const buyerTab = await tab(buyer);
    const reason = { reason: 'Counterfeit.' };
    const hide = await req('POST', `/api/admin/items/listing/${listingId}/hide`, admin, reason);
    expect(hide.statusCode, hide.body).toBe(200);
    expect(await buyerTab.next(aboutListing(listingId))).toMatchObject({ status: 'unavailable' });
    expect(await cardStatus(buyer, roomId, listingId)).toBe('unavailable');
    const back = await req('POST', `/api/admin/items/listing/${listingId}/restore`, admin, reason);
    expect(back.statusCode, back.body).toBe(200);
    expect(await buyerTab.next(aboutListing(listingId))).toMatchObject({ status: 'available' });
  });

  it('a member the seller blocked hears nothing of the listing, though still in the room', async () => {
    const listing = await createListing(t, seller, { title: 'Se una notte d’inverno' });
    const blocked = await createMember(t, { displayName: 'Bianca Blocked' });
    const contact = await req('POST', '/api/chats/contact', blocked, {
      listingId: listing.id,
      content: 'Ciao',
    });
    expect(contact.statusCode, contact.body).toBe(201);
    await req('POST', '/api/chats/contact', buyer, { listingId: listing.id, content: 'Ciao' });
    expect((await req('PUT', `/api/blocks/${blocked.id}`, seller)).statusCode).toBe(200);
    const blockedTab = await tab(blocked);
    const buyerTab = await tab(buyer);
    await req('POST', `/api/listings/${listing.id}/status`, seller, { status: 'sold' });
    expect(await buyerTab.next(aboutListing(listing.id))).toMatchObject({ status: 'sold' });
    await wait(300);
    expect(blockedTab.frames.filter(aboutListing(listing.id))).toEqual([]);
  });

  it('another member cannot change someone else’s listing: 404, and nobody hears anything', async () => {
    const { listingId } = await conversation('Palomar');
    const buyerTab = await tab(buyer);
    const res = await req('POST', `/api/listings/${listingId}/status`, stranger, {
      status: 'sold',
    });
    expect(res.statusCode).toBe(404);
    await wait(300);
    expect(buyerTab.frames.filter(aboutListing(listingId))).toEqual([]);
    const [row] = await t.database.query<{ status: string }>(
      'select status from book_listings where id = $1',
      [listingId],
    );
    expect(row.status).toBe('available');
  });

  it('turns unavailable when its seller deletes their account', async () => {
    const leaving = await createMember(t, { displayName: 'Lea Leaving' });
    const listing = await createListing(t, leaving, { title: 'Marcovaldo' });
    const contact = await req('POST', '/api/chats/contact', buyer, {
      listingId: listing.id,
      content: 'È ancora disponibile?',
    });
    expect(contact.statusCode, contact.body).toBe(201);
    const buyerTab = await tab(buyer);
    const gone = await req('POST', '/api/me/delete', leaving, { password: leaving.password });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await buyerTab.next(aboutListing(listing.id))).toMatchObject({ status: 'unavailable' });
    expect(await cardStatus(buyer, contact.json().roomId, listing.id)).toBe('unavailable');
  });
});
