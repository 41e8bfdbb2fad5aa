import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app';
import { createListing } from '../../../test/listings';
import type { Member } from '../../../test/members';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../../test/harness';
import { notificationText } from '../../../platform/notifications';

let t: TestApp, req: Requester;
let seller: Member, buyer: Member, rival: Member;

beforeAll(async () => {
  ({ t, req, seller, buyer, rival } = await appWithMembers({
    seller: { username: 'sara_notif', displayName: 'Sara Seller' },
    buyer: { username: 'bruno_notif', displayName: 'Bruno Buyer' },
    rival: { username: 'rita_notif', displayName: 'Rita Rival' },
  }));
}, SIGN_UP_TIMEOUT);

async function contact(who: Member, listingId: string) {
  const res = await req('POST', '/api/chats/contact', who, { listingId, content: 'Ciao!' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().roomId as string;
}
const notificationsOf = async (who: Member) =>
  (await req('GET', '/api/notifications', who)).json().items as Array<{
    type: string;
    actor: { id: string } | null;
    subject: { type: string; id: string };
    data: Record<string, unknown>;
    link: string;
  }>;

describe('offer notifications', () => {
  it('tell the seller of an offer and the buyers of the answers, each opening the chat', async () => {
    const listing = await createListing(t, seller, { title: 'Le città invisibili', price: 20 });
    const buyerRoom = await contact(buyer, listing.id);
    const rivalRoom = await contact(rival, listing.id);
    const made = await req('POST', `/api/chats/rooms/${buyerRoom}/offers`, buyer, {
      listingId: listing.id,
      amount: 15,
    });
    expect(made.statusCode, made.body).toBe(201);
    await req('POST', `/api/chats/rooms/${rivalRoom}/offers`, rival, {
      listingId: listing.id,
      amount: 12,
    });

    const received = await notificationsOf(seller);
    expect(received.map((n) => [n.type, n.actor?.id, n.subject.id])).toEqual([
      ['offer.received', rival.id, rivalRoom],
      ['offer.received', buyer.id, buyerRoom],
    ]);
    expect(received[1]).toMatchObject({
      data: { title: 'Le città invisibili', amount: 15, currency: 'EUR', listingId: listing.id },
      link: `/profile/${seller.id}/chats?room=${buyerRoom}`,
    });
    // Stored as data, written in each reader's language when shown (bell and digest alike).
    const words = (lang: 'it' | 'en') =>
      notificationText(lang, {
        type: 'offer.received',
        actorName: 'Bruno',
        actorCount: 1,
        data: received[1].data as Record<string, string | number>,
      });
    expect(words('it')).toBe('Bruno ha offerto 15,00\u00a0€ per «Le città invisibili»');
    expect(words('en')).toBe('Bruno offered €15.00 for “Le città invisibili”');

    const offerId = made.json().message.offer.id;
    expect((await req('POST', `/api/chats/offers/${offerId}/accept`, seller)).statusCode).toBe(200);
    expect(await notificationsOf(buyer)).toMatchObject([
      {
        type: 'offer.answered',
        actor: { id: seller.id },
        data: { context: 'accepted', amount: 15, currency: 'EUR' },
        link: `/profile/${buyer.id}/chats?room=${buyerRoom}`,
      },
    ]);
    // The rival's open offer was declined by the acceptance: the rival hears of it too.
    expect(await notificationsOf(rival)).toMatchObject([
      { type: 'offer.answered', actor: { id: seller.id }, data: { context: 'declined' } },
    ]);
  });

  it('are hidden from a member who left the room and deleted with the room', async () => {
    const listing = await createListing(t, seller, { title: 'Il sentiero dei nidi di ragno' });
    const room = await contact(buyer, listing.id);
    await req('POST', `/api/chats/rooms/${room}/offers`, buyer, {
      listingId: listing.id,
      amount: 9,
    });
    const about = (n: { subject: { id: string } }) => n.subject.id === room;
    // The pair's one direct room: the offers of the first test are about it too.
    expect((await notificationsOf(seller)).filter(about).length).toBeGreaterThan(0);
    expect(
      (await req('DELETE', `/api/chats/rooms/${room}/participants/me`, seller)).statusCode,
    ).toBe(204);
    expect((await notificationsOf(seller)).filter(about)).toEqual([]);
    expect(
      (await req('DELETE', `/api/chats/rooms/${room}/participants/me`, buyer)).statusCode,
    ).toBe(204);
    const left = await t.database.query(
      `select 1 from notifications where subject_type = 'room' and subject_id = $1`,
      [room],
    );
    expect(left).toEqual([]);
  });
});
